import { describe, expect, it } from 'vitest';
import { redactSecrets, redactUrl } from '../../../src/server/http/log-redaction.js';
import { generateAdminKey, generateApiKey } from '../../../src/server/auth/secrets.js';

/** Issue 38: whatever a log keeps, nothing shaped like a credential survives in it. */
describe('redactSecrets', () => {
  const key = generateApiKey();
  const admin = generateAdminKey();
  const session = `fs_${'a1b2c3d4e5'.repeat(4)}`;
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfMSJ9.c2lnbmF0dXJlLXBhcnQ';

  it('redacts keys, the admin key, session ids and JWTs anywhere in a text, keeping their kind', () => {
    expect(redactSecrets(`a ${key.key} b ${admin} c ${session} d ${jwt} e`)).toBe(
      'a fk_[redacted] b fadm_[redacted] c fs_[redacted] d [redacted-token] e',
    );
    expect(redactSecrets(key.key.toUpperCase())).toBe('FK_[redacted]');
  });

  it('keeps what is not a credential: a key display prefix, ids, words with an fs_ prefix', () => {
    for (const text of [key.prefix, 'key_abc123', 'usr_0123456789abcdef', 'fs_short', 'req_df7b8727c3e5', 'eyJ alone'])
      expect(redactSecrets(text)).toBe(text);
  });

  it('redacts a credential in a URL path or in a query parameter of any name, encoded or not', () => {
    expect(redactUrl(`/v2/livedocs/${key.key}/resources?x=${encodeURIComponent(jwt)}&page=2`)).toBe(
      '/v2/livedocs/fk_[redacted]/resources?x=[redacted-token]&page=2',
    );
    expect(redactUrl(`/v2/livedocs/${key.key.replace('_', '%5F')}`)).toBe('/v2/livedocs/fk%5F[redacted]');
    expect(redactUrl('/files/a?sig=abc&expires=9')).toBe('/files/a?sig=[redacted]&expires=9');
  });

  it('decodes percent-escapes before matching: a fully, partly or twice encoded key goes too (issue 47)', () => {
    const all = [...key.key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const partly = `${key.key.slice(0, 6)}%${key.key.charCodeAt(6).toString(16)}${key.key.slice(7)}`;
    expect(redactUrl(`/v2/livedocs/${all}`)).toBe('/v2/livedocs/fk_[redacted]');
    expect(redactUrl(`/v2/livedocs/${partly}/resources?page=2`)).toBe('/v2/livedocs/fk_[redacted]/resources?page=2');
    expect(redactUrl(`/v2/x?note=${encodeURIComponent(all)}`)).toBe('/v2/x?note=fk_[redacted]');
    expect(redactSecrets(`name: "pasted ${partly}"`)).toBe('name: "pasted fk_[redacted]"');
    // Escapes that hide nothing are left as they came.
    expect(redactUrl('/v2/livedocs?q=caf%C3%A9%20au%20lait&bad=%E0%A4%A')).toBe(
      '/v2/livedocs?q=caf%C3%A9%20au%20lait&bad=%E0%A4%A',
    );
  });
});
