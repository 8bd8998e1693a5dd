import { createHash } from 'node:crypto';
import stableStringify from 'safe-stable-stringify';
import { readJson, signJson } from '../../auth/signed-token.js';

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
  const kept = Object.fromEntries(Object.entries(task).filter(([k]) => !ignore.includes(k)));
  return createHash('sha256').update(stableStringify(kept)).digest('base64url').slice(0, 22);
}

export function signToken(secret: Uint8Array, state: TokenState): string {
  return signJson(secret, 'beta-paging', { h: state.params, p: state.position });
}

/** The token's state, or an explanation of why it cannot be used. */
export function readToken(secret: Uint8Array, token: string, params: string): { position: number } | { error: string } {
  const state = readJson(secret, 'beta-paging', token) as { h?: unknown; p?: unknown } | null;
  if (!state || typeof state !== 'object') return { error: 'the token was not issued by this server' };
  if (state.h !== params)
    return { error: 'the other parameters differ from the request the token came from; they must stay identical' };
  if (typeof state.p !== 'number' || !Number.isInteger(state.p) || state.p < 0)
    return { error: 'the token is malformed' };
  return { position: state.p };
}
