import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn from the operating system in blocks and handed out in order, never twice:
// one system call per call of randomToken cost more than the rest of the function (each model call
// names its answer with one). The bytes are the same CSPRNG output either way.
const POOL_SIZE = 4096;
// Its own memory (not a slice of Node's shared Buffer pool, which other code reads and writes).
const pool = Buffer.alloc(POOL_SIZE);
let used = POOL_SIZE;

function randomByte(): number {
  if (used === POOL_SIZE) {
    randomFillSync(pool);
    used = 0;
  }
  const byte = pool[used];
  // Spent bytes are overwritten, so a byte that named one thing is not left lying in memory.
  pool[used++] = 0;
  return byte;
}

/** Random base-36 text; rejection sampling keeps every character equally likely. */
export function randomToken(length: number, alphabet = ALPHABET): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

/** Prefixed identifiers ("usr_…", "key_…") tell a reader what an id names. */
export function newId(prefix: string): string {
  return `${prefix}_${randomToken(16)}`;
}
