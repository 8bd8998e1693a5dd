import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Random base-36 text; rejection sampling keeps every character equally likely. */
export function randomToken(length: number, alphabet = ALPHABET): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 256 - (256 % alphabet.length)) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Prefixed identifiers ("usr_…", "key_…") tell a reader what an id names. */
export function newId(prefix: string): string {
  return `${prefix}_${randomToken(16)}`;
}
