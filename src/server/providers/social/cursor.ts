import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A cursor that cannot be read: forged, damaged, or made for another query, order or endpoint. */
export class CursorError extends Error {}

/** What a cursor carries: the keyset where the last page stopped, and how many results came before. */
export interface CursorState {
  /** The order's column value and the id (or id_key) of the last result served. */
  k: [number, string];
  /** Results served before the next page (the Top depth cap counts these). */
  n: number;
}

/**
 * The scope a cursor belongs to: endpoint plus everything that decides the result set and its
 * order. A cursor is only accepted with the same scope, so it cannot continue a different query.
 */
export function cursorScope(parts: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

const mac = (secret: Uint8Array, text: string) => createHmac('sha256', secret).update(text).digest('base64url').slice(0, 32);

/** Opaque and signed: base64url(JSON) "." HMAC; the signature covers the scope. */
export function encodeCursor(secret: Uint8Array, scope: string, state: CursorState): string {
  const body = Buffer.from(JSON.stringify({ s: scope, ...state })).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

export function decodeCursor(secret: Uint8Array, scope: string, cursor: string): CursorState {
  const [body, sig, extra] = cursor.split('.');
  if (!body || !sig || extra !== undefined) throw new CursorError('the cursor is not one this platform issued');
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new CursorError('the cursor is not one this platform issued (bad signature)');
  const state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorState & { s: string };
  if (state.s !== scope) throw new CursorError('the cursor belongs to a different query, order or endpoint; start again without a cursor');
  return { k: state.k, n: state.n };
}
