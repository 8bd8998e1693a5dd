import { createHash } from 'node:crypto';
import { readJson, signJson } from '../../auth/signed-token.js';

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

/** Opaque and signed (auth/signed-token.ts); the signature covers the scope. */
export function encodeCursor(secret: Uint8Array, scope: string, state: CursorState): string {
  return signJson(secret, 'social-cursor', { s: scope, ...state });
}

export function decodeCursor(secret: Uint8Array, scope: string, cursor: string): CursorState {
  const state = readJson(secret, 'social-cursor', cursor) as (CursorState & { s: string }) | null;
  if (!state || typeof state !== 'object') throw new CursorError('the cursor is not one this platform issued');
  if (state.s !== scope)
    throw new CursorError('the cursor belongs to a different query, order or endpoint; start again without a cursor');
  return { k: state.k, n: state.n };
}
