import { RequestValidationError } from '../errors.js';

/**
 * A keyset page's cursor: the last row's sort value and id, opaque to the caller. One that this
 * server did not give out is a 422 on `cursor` in the caller's own validation shape.
 */
export function encodePageCursor(sortValue: string, id: string): string {
  return Buffer.from(JSON.stringify([sortValue, id])).toString('base64url');
}

export function decodePageCursor(cursor: string): [sortValue: string, id: string] {
  try {
    const [sortValue, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof sortValue === 'string' && typeof id === 'string') return [sortValue, id];
  } catch {
    // reported below
  }
  throw new RequestValidationError(
    [
      {
        loc: ['query', 'cursor'],
        msg: 'not a cursor this server gave out (use X-Next-Cursor of the previous page)',
        type: 'value_error',
      },
    ],
    false,
  );
}
