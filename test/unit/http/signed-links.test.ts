import { describe, expect, it } from 'vitest';
import { pageLink as signedUrl, requirePageLink as requireSignedLink } from '../../../src/server/auth/signed-links.js';

const at = (iso: string) => ({
  baseUrl: 'http://127.0.0.1:9',
  tokenSecret: new TextEncoder().encode('s3cret'),
  now: () => new Date(iso),
});

function query(url: string) {
  const u = new URL(url);
  return { expires: u.searchParams.get('expires')!, sig: u.searchParams.get('sig')! };
}

describe('signed page links', () => {
  const ctx = at('2026-11-22T12:00:00Z');
  const url = signedUrl(ctx, 'mindmap', 'res_a', '/mindmaps/res_a?layout=TIMELINE', 3600);

  it('appends expires and sig to the path and its own query, and accepts them back', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:9\/mindmaps\/res_a\?layout=TIMELINE&expires=\d+&sig=[\w-]+$/);
    expect(() => requireSignedLink(ctx, 'mindmap', 'res_a', query(url))).not.toThrow();
  });

  it('refuses another id, another purpose, another secret, a changed expiry, and a link past its expiry', () => {
    const q = query(url);
    expect(() => requireSignedLink(ctx, 'mindmap', 'res_b', q)).toThrow(/not valid/);
    expect(() => requireSignedLink(ctx, 'slides', 'res_a', q)).toThrow(/not valid/);
    expect(() =>
      requireSignedLink({ ...ctx, tokenSecret: new TextEncoder().encode('other') }, 'mindmap', 'res_a', q),
    ).toThrow(/not valid/);
    expect(() => requireSignedLink(ctx, 'mindmap', 'res_a', { ...q, expires: String(Number(q.expires) + 1) })).toThrow(
      /not valid/,
    );
    expect(() => requireSignedLink(ctx, 'mindmap', 'res_a', { expires: 'soon', sig: q.sig })).toThrow(/not valid/);
    expect(() => requireSignedLink(at('2026-11-22T13:00:01Z'), 'mindmap', 'res_a', q)).toThrow(/expired/);
    try {
      requireSignedLink(ctx, 'mindmap', 'res_b', q);
    } catch (err) {
      expect((err as { status: number }).status).toBe(403);
    }
  });
});
