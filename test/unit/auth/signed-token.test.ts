import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readJson, sign, signatureMatches, signJson } from '../../../src/server/auth/signed-token.js';

const secret = new Uint8Array(randomBytes(32));

describe('signed tokens and signatures', () => {
  it('a token reads back for its own purpose only', () => {
    const token = signJson(secret, 'social-cursor', { s: 'scope', k: [1, 'x'], n: 20 });
    expect(readJson(secret, 'social-cursor', token)).toEqual({ s: 'scope', k: [1, 'x'], n: 20 });
    expect(readJson(secret, 'beta-paging', token)).toBeNull();
    expect(readJson(new Uint8Array(randomBytes(32)), 'social-cursor', token)).toBeNull();
  });

  it('a changed body, a changed signature or a malformed token is refused', () => {
    const token = signJson(secret, 'beta-paging', { h: 'p', p: 40 });
    const [body, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ h: 'p', p: 4000 })).toString('base64url');
    expect(readJson(secret, 'beta-paging', `${forged}.${sig}`)).toBeNull();
    // The first character, whose six bits are all signature (the last one's low bits are padding,
    // and it was 'A' already for one secret in sixteen).
    const changed = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    expect(readJson(secret, 'beta-paging', `${body}.${changed}`)).toBeNull();
    for (const bad of ['', '.', 'abc', `${body}.${sig}.x`, `!!.${sig}`])
      expect(readJson(secret, 'beta-paging', bad)).toBeNull();
  });

  it('signs with a key of its own per purpose, never the server secret itself', () => {
    const plain = createHmac('sha256', secret).update('id\n1').digest('base64url');
    expect(sign(secret, 'link:mindmap', 'id\n1')).not.toBe(plain);
    expect(sign(secret, 'link:mindmap', 'id\n1')).not.toBe(sign(secret, 'link:slides', 'id\n1'));
    expect(signatureMatches(secret, 'link:mindmap', 'id\n1', sign(secret, 'link:mindmap', 'id\n1'))).toBe(true);
    expect(signatureMatches(secret, 'link:slides', 'id\n1', sign(secret, 'link:mindmap', 'id\n1'))).toBe(false);
  });
});
