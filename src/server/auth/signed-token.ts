import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The one way the server signs what it hands out and must recognise later: page links, social
 * cursors, beta paging tokens. Each purpose signs with its own key, derived from the server's
 * secret (HKDF), so a signature made for one purpose is worthless for any other, and the key that
 * signs access tokens signs nothing else.
 */
export type SigningPurpose = `link:${string}` | 'social-cursor' | 'beta-paging' | 'console-csrf';

const derived = new WeakMap<Uint8Array, Map<SigningPurpose, Buffer>>();

function keyFor(secret: Uint8Array, purpose: SigningPurpose): Buffer {
  let keys = derived.get(secret);
  if (!keys) derived.set(secret, (keys = new Map<SigningPurpose, Buffer>()));
  let key = keys.get(purpose);
  if (!key) keys.set(purpose, (key = Buffer.from(hkdfSync('sha256', secret, 'facet signed data', purpose, 32))));
  return key;
}

/** The signature of `text` for `purpose`, base64url. */
export function sign(secret: Uint8Array, purpose: SigningPurpose, text: string): string {
  return createHmac('sha256', keyFor(secret, purpose)).update(text).digest('base64url');
}

/** Whether `given` is the signature of `text` for `purpose` (compared in constant time). */
export function signatureMatches(
  secret: Uint8Array,
  purpose: SigningPurpose,
  text: string,
  given: string,
  length = 43,
): boolean {
  const want = Buffer.from(sign(secret, purpose, text).slice(0, length));
  const got = Buffer.from(given);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Tokens carry 192 bits of signature: as hard to forge, and shorter in a URL. */
const TOKEN_SIG = 32;

/** An opaque token for `purpose`: base64url(JSON of value) "." signature. */
export function signJson(secret: Uint8Array, purpose: SigningPurpose, value: unknown): string {
  const body = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${body}.${sign(secret, purpose, body).slice(0, TOKEN_SIG)}`;
}

/** What a token made by signJson for `purpose` carries; null when it is malformed or not signed by this server for it. */
export function readJson(secret: Uint8Array, purpose: SigningPurpose, token: string): unknown {
  const parts = token.split('.');
  if (parts.length !== 2 || !parts[0] || !signatureMatches(secret, purpose, parts[0], parts[1], TOKEN_SIG)) return null;
  try {
    return JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}
