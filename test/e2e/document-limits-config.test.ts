import { afterAll, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { manyPagePdf } from '../helpers/bombs.js';

/** A limit raised with FACET_DOCUMENT_LIMITS holds in the CPU workers that read the documents. */
let p: Platform | undefined;
afterAll(() => p?.cleanup());

it('FACET_DOCUMENT_LIMITS=pdfMaxPages=1500 reads a 1,200-page PDF and refuses a 1,600-page one naming 1,500', async () => {
  p = await startPlatform({ env: { FACET_DOCUMENT_LIMITS: 'pdfMaxPages=1500' } });
  const platform = p;
  const ld = JSON.parse((await platform.cli(['livedocs', 'create', 'Pages', '--json'])).stdout).short_id as string;
  const upload = async (pages: number) => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(manyPagePdf(pages))], { type: 'application/pdf' }),
      `pages-${pages}.pdf`,
    );
    const r = await platform.fetch(`/v2/livedocs/${ld}/resources/upload-doc`, {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.boot.api_key}` },
      body: form,
    });
    return { status: r.status, body: (await r.json()) as { message?: string } };
  };
  expect((await upload(1200)).status).toBe(200);
  const over = await upload(1600);
  expect(over.status).toBe(413);
  expect(over.body.message).toMatch(/limit pdfMaxPages = 1,500/);
}, 120_000);
