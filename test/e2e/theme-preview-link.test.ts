import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sofficePath } from '../../src/server/engines/slides/preview.js';
import { startPlatform, type Platform } from '../helpers/platform.js';

/** A custom theme's preview picture opens only through the signed link its owner's API answers carry. */
let p: Platform;
let theme: { id: string; preview_url: string };
const auth = () => ({ Authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' });

beforeAll(async () => {
  p = await startPlatform();
  const res = await p.fetch('/v2/ppt-themes', {
    method: 'POST',
    headers: auth(),
    body: JSON.stringify({
      title: 'Private palette',
      colors: { background: '#ffffff', text: '#111111', accent: '#aa3300' },
      fonts: { heading: 'DejaVu Sans', body: 'DejaVu Sans' },
    }),
  });
  expect(res.status).toBe(200);
  theme = (await res.json()).data;
});
afterAll(() => p?.cleanup());

describe('theme preview links', () => {
  it('the API hands out a signed preview_url for a custom theme, in create and list', async () => {
    expect(theme.preview_url).toMatch(/\/slides\/themes\/[^/]+\/preview\.png\?expires=\d+&sig=[\w-]+$/);
    const listed = (await (await p.fetch('/v2/ppt-themes?type=custom', { headers: auth() })).json()).data.items;
    expect(listed.find((t: { id: string }) => t.id === theme.id).preview_url).toMatch(/sig=/);
  });

  it('the bare path, a forged or altered signature: 403 in the image shape, whether or not the theme exists', async () => {
    const bare = `/slides/themes/${encodeURIComponent(theme.id)}/preview.png`;
    const u = new URL(theme.preview_url);
    const altered = `${bare}?expires=${Number(u.searchParams.get('expires')) + 1}&sig=${u.searchParams.get('sig')}`;
    for (const path of [
      bare,
      `${bare}?expires=9999999999&sig=forged`,
      altered,
      '/slides/themes/thm_does_not_exist/preview.png',
    ]) {
      const res = await p.fetch(path);
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'FORBIDDEN', detail: expect.stringMatching(/link/) });
    }
  });

  it('the signed link opens it (drawn, or 503 where LibreOffice is missing); a shipped theme needs no signature', async () => {
    const res = await fetch(theme.preview_url);
    expect(res.status).toBe(sofficePath() ? 200 : 503);
    if (res.status === 200) expect(res.headers.get('cache-control')).toMatch(/^private/);
    const shipped = (await (await p.fetch('/v2/ppt-themes?type=default', { headers: auth() })).json()).data.items[0];
    expect(shipped.preview_url).not.toMatch(/sig=/);
    expect((await fetch(shipped.preview_url)).status).toBe(sofficePath() ? 200 : 503);
  });
});
