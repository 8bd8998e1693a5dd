import { hash, timingSafeEqual } from 'node:crypto';
import { unescape } from 'node:querystring';
import { randomToken } from '../store/ids.js';

/** API keys carry a recognisable prefix so scanners and people can tell what leaked. */
export const API_KEY_PREFIX = 'fk_';
export const ADMIN_KEY_PREFIX = 'fadm_';
const DISPLAY_LENGTH = 10;

/** 40 base-36 characters ≈ 206 bits: a plain SHA-256 is a sound hash at that entropy. */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomToken(40);
  return { key, prefix: key.slice(0, DISPLAY_LENGTH), hash: hashSecret(key) };
}

export function generateAdminKey(): string {
  return ADMIN_KEY_PREFIX + randomToken(40);
}

/** Every authenticated request hashes its key: the one-shot hash is about twice as fast as a Hash object. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function sameSecret(given: string, expectedHash: string): boolean {
  const a = Buffer.from(hashSecret(given), 'hex');
  const b = Buffer.from(expectedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Anything shaped like a credential of this platform, wherever it stands: an API key (`fk_`), the
 * admin key (`fadm_`), a session id (`fs_`), each 40 base-36 characters (matched from 16, so a cut
 * one goes too; a key's 10-character display prefix stays), or a JWT (an access token).
 */
const SECRET_SHAPE = /(fk|fadm|fs)(_|%5f)[0-9a-z]{16,}|eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/gi;
/** A run of URL characters holding at least one percent-escape: it may hide a credential. */
const ENCODED_RUN = /[\w.~%-]*%[0-9a-f]{2}[\w.~%-]*/gi;

const redactPlain = (text: string) =>
  text.replace(SECRET_SHAPE, (_m, kind: string | undefined, sep: string | undefined) =>
    kind ? `${kind}${sep}[redacted]` : '[redacted-token]',
  );

/** Percent-decoded (twice-encoded too); querystring's unescape never throws on a malformed escape. */
function decoded(run: string): string {
  let text = run;
  for (let i = 0; i < 3 && text.includes('%'); i++) {
    const next = unescape(text);
    if (next === text) break;
    text = next;
  }
  return text;
}

/**
 * Text with every credential-shaped run replaced by its kind and [redacted]: for whatever a log or
 * the audit trail keeps. A run with percent-escapes is decoded before it is matched, so a key fully
 * or partly encoded (`%66%6B%5F…`, `fk_abc%64…`) goes too, shown decoded and redacted.
 */
export function redactSecrets(text: string): string {
  const plain = redactPlain(text);
  if (!plain.includes('%')) return plain;
  return plain.replace(ENCODED_RUN, (run) => {
    const clear = decoded(run);
    const redacted = redactPlain(clear);
    return redacted === clear ? run : redacted;
  });
}
