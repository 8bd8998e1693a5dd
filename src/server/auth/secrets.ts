import { hash, timingSafeEqual } from 'node:crypto';
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
