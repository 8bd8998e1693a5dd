import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed paging tokens (backlinks' search_after_token, whois' offset_token): the token carries the
 * position to go on from and a hash of every other parameter of the request it continues, signed
 * with the server's secret, so a forged token or one reused with changed parameters is refused.
 */

export interface TokenState {
  /** Hash of the request's parameters without the token itself. */
  params: string;
  position: number;
}

/** The parameters that must stay identical, in a canonical form (keys sorted at every level). */
export function paramsHash(task: Record<string, unknown>, ignore: readonly string[]): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  const kept = Object.fromEntries(Object.entries(task).filter(([k]) => !ignore.includes(k)));
  return createHash('sha256').update(JSON.stringify(canonical(kept))).digest('base64url').slice(0, 22);
}

function mac(secret: Uint8Array, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url').slice(0, 32);
}

export function signToken(secret: Uint8Array, state: TokenState): string {
  const body = Buffer.from(JSON.stringify({ h: state.params, p: state.position })).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The token's state, or an explanation of why it cannot be used. */
export function readToken(secret: Uint8Array, token: string, params: string): { position: number } | { error: string } {
  const [body, sig] = token.split('.');
  if (!body || !sig) return { error: 'the token is malformed' };
  const want = Buffer.from(mac(secret, body));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return { error: 'the token was not issued by this server' };
  let state: { h?: unknown; p?: unknown };
  try {
    state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { error: 'the token is malformed' };
  }
  if (state.h !== params) return { error: 'the other parameters differ from the request the token came from; they must stay identical' };
  if (typeof state.p !== 'number' || !Number.isInteger(state.p) || state.p < 0) return { error: 'the token is malformed' };
  return { position: state.p };
}
