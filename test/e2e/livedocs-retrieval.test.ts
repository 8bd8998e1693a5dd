import { writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { servePages, type PageServer } from '../helpers/pages.js';
import { makeDocx, makePdf, makePptx } from '../helpers/documents.js';

let p: Platform;
let pages: PageServer;
let files: string;
let ld: string;

const article = (title: string, paragraphs: string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav>Home | About | Contact</nav><article><h1>${title}</h1>${paragraphs.map((t) => `<p>${t}</p>`).join('')}</article><footer>© 2026</footer></body></html>`;

const json = (r: { stdout: string; stderr: string; exitCode: number }) => {
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

const v2 = (key: string, pathname: string, init: { method?: string; body?: unknown } = {}) =>
  p.fetch(pathname, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers: {
      Authorization: `Bearer ${key}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    redirect: 'manual',
  });

beforeAll(async () => {
  [p, pages] = await Promise.all([
    startPlatform(),
    servePages({
      '/volcano': {
        body: article('Volcanoes of Iceland', [
          'Iceland has about 130 volcanic mountains. The Eyjafjallajökull eruption in 2010 grounded flights across Europe for six days.',
          'Lava fields cover a tenth of the island, and geothermal energy heats nine homes in ten.',
        ]),
      },
      '/coffee': {
        body: article('Brewing coffee', [
          'Pour-over coffee needs water at 92 to 96 degrees Celsius. A ratio of one gram of coffee to sixteen grams of water is a good start.',
          'Grind size controls the extraction time: finer grounds extract faster.',
        ]),
      },
      '/broken': { status: 500, body: 'oops', type: 'text/plain' },
    }),
  ]);
  files = tempDir('files');
  ld = json(
    await p.cli(['livedocs', 'create', 'Research', '--description', 'Travel and food notes.', '--json']),
  ).short_id;
});
afterAll(async () => {
  p?.cleanup();
  await pages?.close();
});

describe('LiveDocs through the CLI', () => {
  it('creates, lists with keyword and paging, gets, updates', async () => {
    const second = json(await p.cli(['livedocs', 'create', 'Scratch', '--json']));
    const list = json(await p.cli(['livedocs', 'list', '--keyword', 'travel', '--json']));
    expect(list).toMatchObject({ total: 1, page: 1, size: 20 });
    expect(list.items[0]).toMatchObject({ short_id: ld, is_shared: false, readme: null });
    const paged = json(await p.cli(['livedocs', 'list', '--size', '1', '--page', '2', '--json']));
    expect(paged).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(paged.items).toHaveLength(1);
    const updated = json(await p.cli(['livedocs', 'update', second.short_id, '--name', 'Scratchpad', '--json']));
    expect(updated.name).toBe('Scratchpad');
    expect(json(await p.cli(['livedocs', 'get', second.short_id, '--json'])).name).toBe('Scratchpad');
    const del = await p.cli(['livedocs', 'delete', second.short_id, '--yes']);
    expect(del.exitCode, del.stderr).toBe(0);
    const gone = await p.cli(['livedocs', 'get', second.short_id]);
    expect(gone.exitCode).toBe(4);
    expect(gone.stderr).toMatch(/LIVEDOC_NOT_FOUND/);
  });

  it('adds URLs: extracted pages succeed, a duplicate exists, a failing page has a reason', async () => {
    const add = await p.cli([
      'livedocs',
      'resources',
      'add-url',
      ld,
      `${pages.url}/volcano`,
      `${pages.url}/coffee`,
      `${pages.url}/broken`,
      '--json',
    ]);
    const results = json(add);
    expect(results.map((r: { status: string }) => r.status)).toEqual(['success', 'success', 'failed']);
    expect(results[2].fail_reason).toMatch(/500/);
    expect(results[2].resource_id).toBe('');
    const again = json(
      await p.cli(['livedocs', 'resources', 'add-url', '--livedoc', ld, `${pages.url}/volcano`, '--json']),
    );
    expect(again[0]).toMatchObject({ status: 'existed', resource_id: results[0].resource_id });

    const res = json(await p.cli(['livedocs', 'resources', 'get', ld, results[0].resource_id, '--json']));
    expect(res).toMatchObject({
      title: 'Volcanoes of Iceland',
      resource_type: 'web',
      source: 'url',
      status: 'completed',
      link: `${pages.url}/volcano`,
    });
    expect(res.snippet).toMatch(/130 volcanic mountains/);
    const text = ok(await p.cli(['livedocs', 'resources', 'content', ld, results[0].resource_id]));
    expect(text.stdout).toMatch(/Eyjafjallajökull eruption in 2010/);
    expect(text.stdout).not.toMatch(/Home \| About/);
  });

  it('uploads PDF, DOCX and Markdown; retrieve finds the right chunk; content and download work', async () => {
    const pdf = path.join(files, 'tides.pdf');
    writeFileSync(
      pdf,
      makePdf(
        [
          ['Tidal report for Halifax harbour.', 'Spring tides reach 2.4 metres at the north wharf.'],
          ['Neap tides stay under 1.1 metres in March.'],
        ],
        'Tides',
      ),
    );
    const docx = path.join(files, 'onboarding.docx');
    writeFileSync(
      docx,
      await makeDocx('Onboarding guide', [
        'New engineers receive a hardware security key on their first day.',
        'The VPN password rotates every ninety days.',
      ]),
    );
    const md = path.join(files, 'recipes.md');
    writeFileSync(
      md,
      '# Recipes\n\n## Sourdough\n\nFeed the starter with rye flour twelve hours before baking.\n\n## Pesto\n\nBasil, pine nuts, parmesan and olive oil, pounded in a mortar.\n',
    );

    const up = json(await p.cli(['livedocs', 'resources', 'upload', ld, pdf, '--json']));
    expect(up).toMatchObject({ resource_type: 'file', title: 'Tides' });
    const doc = json(await p.cli(['livedocs', 'resources', 'upload-doc', ld, docx, '--json']));
    expect(doc).toMatchObject({ resource_type: 'ai_doc', title: 'Onboarding guide' });
    const mdDoc = json(
      await p.cli(['livedocs', 'resources', 'upload-doc', '--livedoc', ld, md, '--title', 'Kitchen', '--json']),
    );
    expect(mdDoc.title).toBe('Kitchen');

    const hits = json(
      await p.cli(['livedocs', 'resources', 'retrieve', ld, 'how high are spring tides at the wharf', '--json']),
    );
    expect(hits[0]).toMatchObject({ id: up.id, title: 'Tides' });
    expect(hits[0].content).toMatch(/2\.4 metres/);
    expect(hits[0].metadata.page_number).toBe(1);
    expect(hits[0].score).toBeGreaterThan(0);
    const neap = json(
      await p.cli(['livedocs', 'resources', 'retrieve', ld, 'neap tides in March', '--resource', up.id, '--json']),
    );
    expect(neap[0].metadata.page_number).toBe(2);

    const key = json(
      await p.cli(['livedocs', 'resources', 'retrieve', ld, 'security key for new engineers', '--json']),
    );
    expect(key[0].id).toBe(doc.id);
    expect(key[0].content).toMatch(/hardware security key/);
    const routed = json(
      await p.cli(['livedocs', 'resources', 'route', ld, 'pesto with basil', '--max', '2', '--json']),
    );
    expect(routed[0]).toBe(mdDoc.id);

    const docText = json(await p.cli(['livedocs', 'resources', 'content', ld, doc.id, '--json']));
    expect(docText).toMatchObject({ title: 'Onboarding guide', type: 'ai_doc' });
    expect(docText.content).toMatch(/^# Onboarding guide/);

    // download: 302 to a signed URL the platform serves; tampering or expiry is refused
    const r302 = await v2(p.boot.api_key, `/v2/livedocs/${ld}/resources/${up.id}/download?expires_in=60`);
    expect(r302.status).toBe(302);
    const location = r302.headers.get('location')!;
    expect(location).toMatch(/\/files\/resources\/.+expires=\d+&sig=/);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(readFileSync(pdf))).toBe(true);
    // A tampered signature: its first character changed to another one (never the same one).
    expect((await fetch(location.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'x' ? 'y' : 'x'}`))).status).toBe(
      403,
    );
    const out = path.join(files, 'copy.pdf');
    const dl = await p.cli(['livedocs', 'resources', 'download', ld, up.id, '-o', out]);
    expect(dl.exitCode, dl.stderr).toBe(0);
    expect(readFileSync(out).equals(readFileSync(pdf))).toBe(true);
    // a web page has no source file
    const web = json(await p.cli(['livedocs', 'resources', 'list', ld, '--type', 'web', '--json']));
    expect(web.total).toBe(2);
    const noFile = await v2(p.boot.api_key, `/v2/livedocs/${ld}/resources/${web.items[0].id}/download`);
    expect(noFile.status).toBe(400);
  });

  it('an image keeps its format, and its content is a 400', async () => {
    const png = path.join(files, 'dot.png');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
    const img = json(await p.cli(['livedocs', 'resources', 'upload', ld, png, '--json']));
    const r = await v2(p.boot.api_key, `/v2/livedocs/${ld}/resources/${img.id}/content`);
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ status: 'error', code: 'UNSUPPORTED_RESOURCE_TYPE' });
  });

  it('keeps the index in step with set-content, update and delete', async () => {
    const doc = json(
      await p.cli([
        'livedocs',
        'resources',
        'add-doc',
        ld,
        '--title',
        'Notes',
        '--content',
        'The zeppelin hangar opens at dawn.',
        '--json',
      ]),
    );
    expect(doc).toMatchObject({ resource_type: 'ai_doc', snippet: 'The zeppelin hangar opens at dawn.' });
    const before = json(await p.cli(['livedocs', 'resources', 'retrieve', ld, 'zeppelin hangar', '--json']));
    expect(before[0].id).toBe(doc.id);

    const long = 'é'.repeat(1500) + '\n\n## Tours\n\nThe marmalade factory tour runs on Fridays.';
    const set = json(await p.cli(['livedocs', 'resources', 'set-content', ld, doc.id, '--content', long, '--json']));
    expect(Buffer.byteLength(set.snippet)).toBe(2000);
    expect(set.snippet).toBe('é'.repeat(1000));
    expect(json(await p.cli(['livedocs', 'resources', 'retrieve', ld, 'zeppelin hangar', '--json']))).toEqual([]);
    expect(json(await p.cli(['livedocs', 'resources', 'retrieve', ld, 'marmalade factory', '--json']))[0].id).toBe(
      doc.id,
    );

    const renamed = json(
      await p.cli(['livedocs', 'resources', 'update', ld, doc.id, '--title', 'Quokka almanac', '--json']),
    );
    expect(renamed.title).toBe('Quokka almanac');
    // the new title is indexed with every chunk, those under a section heading too
    const byTitle = json(await p.cli(['livedocs', 'resources', 'retrieve', ld, 'quokka', '--json']));
    expect(byTitle.map((h: { id: string }) => h.id)).toEqual([doc.id, doc.id]);
    expect(byTitle.map((h: { metadata: { section: string } }) => h.metadata.section)).toContain('Tours');

    // set-content is only for ai_doc
    const web = json(await p.cli(['livedocs', 'resources', 'list', ld, '--type', 'web', '--json'])).items[0];
    const notDoc = await p.cli(['livedocs', 'resources', 'set-content', ld, web.id, '--content', 'x']);
    expect(notDoc.exitCode).toBe(1);
    expect(notDoc.stderr).toMatch(/UNSUPPORTED_RESOURCE_TYPE/);

    const del = await p.cli(['livedocs', 'resources', 'delete', ld, doc.id, '--yes']);
    expect(del.exitCode, del.stderr).toBe(0);
    expect(json(await p.cli(['livedocs', 'resources', 'retrieve', ld, 'marmalade factory', '--json']))).toEqual([]);
    const gone = await p.cli(['livedocs', 'resources', 'get', ld, doc.id]);
    expect(gone.exitCode).toBe(4);
  });

  it('ppt-retrieve ranks the chunks of one slide', async () => {
    const deck = path.join(files, 'deck.pptx');
    writeFileSync(
      deck,
      await makePptx([
        ['Quarterly review', 'Revenue grew 12 percent'],
        ['Hiring plan', 'Two designers in May', 'Revenue per engineer is flat', 'Office move in June'],
      ]),
    );
    const res = json(await p.cli(['livedocs', 'resources', 'upload', ld, deck, '--json']));
    const ranked = json(
      await p.cli([
        'livedocs',
        'resources',
        'ppt-retrieve',
        ld,
        res.id,
        '--page',
        '2',
        '--query',
        'revenue per engineer',
        '--json',
      ]),
    );
    expect(ranked).toHaveLength(4);
    expect(ranked[0].content).toBe('Revenue per engineer is flat');
    expect(ranked.every((r: { metadata: { page_number: number } }) => r.metadata.page_number === 2)).toBe(true);
    const bad = await v2(p.boot.api_key, `/v2/livedocs/${ld}/resources/ppt-retrieve`, {
      body: { resource_id: res.id, page_number: 9 },
    });
    expect(bad.status).toBe(400);
  });

  it('chat answers from the LiveDocs and cites the source with a matching marker', async () => {
    const r = json(await p.cli(['chat', 'When did the Eyjafjallajökull eruption ground flights?', '--json']));
    expect(r.query_analysis.queries.length).toBeGreaterThan(0);
    const n = r.resources.findIndex((s: { title: string }) => s.title === 'Volcanoes of Iceland') + 1;
    expect(n).toBeGreaterThan(0);
    expect(r.answer).toContain(`[${n}]`);
    expect(r.answer).toMatch(/2010/);
    expect(r.resources[n - 1].link).toBe(`${pages.url}/volcano`);
    const human = await p.cli(['chat', 'pour-over water temperature']);
    expect(human.exitCode, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/92 to 96 degrees/);
    expect(human.stdout).toMatch(/Sources\n\[1\] Brewing coffee — http/);
  });

  it('list items carry a readme once there are resources', async () => {
    const list = json(await p.cli(['livedocs', 'list', '--json']));
    const item = list.items.find((d: { short_id: string }) => d.short_id === ld);
    expect(item.readme.summary).toBe('Travel and food notes.');
    expect(item.readme.content).toMatch(/^# Research\n/);
    expect(item.readme.content).toMatch(/^- \*\*.+\*\*/m);
  });
});

describe('limits and errors of the LiveDocs surface', () => {
  const key = () => p.boot.api_key;
  const expectError = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'error', code });
    expect(typeof body.request_id).toBe('string');
  };

  it('resource update: title 500, snippet 2000, thumbnail 2000 characters', async () => {
    const doc = json(await p.cli(['livedocs', 'resources', 'add-doc', ld, '--content', 'limit test', '--json']));
    const put = (body: unknown) => v2(key(), `/v2/livedocs/${ld}/resources/${doc.id}`, { method: 'PUT', body });
    expect((await put({ title: 't'.repeat(500) })).status).toBe(200);
    await expectError(await put({ title: 't'.repeat(501) }), 400, 'INVALID_PARAMETER');
    expect((await put({ snippet: 's'.repeat(2000) })).status).toBe(200);
    await expectError(await put({ snippet: 's'.repeat(2001) }), 400, 'INVALID_PARAMETER');
    const thumb = (n: number) => 'https://x.test/' + 'a'.repeat(n - 'https://x.test/'.length);
    expect((await put({ thumbnail: thumb(2000) })).status).toBe(200);
    await expectError(await put({ thumbnail: thumb(2001) }), 400, 'INVALID_PARAMETER');
    await expectError(await put({ thumbnail: 'javascript:alert(1)' }), 400, 'INVALID_PARAMETER');
    const after = await (await v2(key(), `/v2/livedocs/${ld}/resources/${doc.id}`)).json();
    expect(after.data).toMatchObject({ title: 't'.repeat(500), snippet: 's'.repeat(2000) });
  });

  it('URL add: 1-10 items, url 5-2000 characters, title at most 1000', async () => {
    const add = (urls: unknown) => v2(key(), `/v2/livedocs/${ld}/resources/urls`, { body: { urls } });
    await expectError(await add([]), 400, 'INVALID_PARAMETER');
    await expectError(await add(Array.from({ length: 11 }, (_, i) => `${pages.url}/p${i}`)), 400, 'INVALID_PARAMETER');
    const ten = await add(Array.from({ length: 10 }, (_, i) => `${pages.url}/missing${i}`));
    expect(ten.status).toBe(200);
    expect(
      (await ten.json()).data.every(
        (r: { status: string; fail_reason: string }) => r.status === 'failed' && /404/.test(r.fail_reason),
      ),
    ).toBe(true);
    await expectError(await add(['a://']), 400, 'INVALID_PARAMETER');
    const five = await (await add(['a://x'])).json();
    expect(five.data[0]).toMatchObject({ status: 'failed' });
    const long = `${pages.url}/coffee?` + 'q'.repeat(2000 - `${pages.url}/coffee?`.length);
    expect((await add([long])).status).toBe(200);
    await expectError(await add([long + 'q']), 400, 'INVALID_PARAMETER');
    expect((await add([{ url: `${pages.url}/coffee#t`, title: 'T'.repeat(1000) }])).status).toBe(200);
    await expectError(await add([{ url: `${pages.url}/coffee`, title: 'T'.repeat(1001) }]), 400, 'INVALID_PARAMETER');
    await expectError(await v2(key(), `/v2/livedocs/${ld}/resources/urls`, { body: {} }), 400, 'MISSING_PARAMETER');
  });

  it('retrieve resource_ids: 1-50', async () => {
    const one = json(await p.cli(['livedocs', 'resources', 'list', ld, '--size', '1', '--json'])).items[0].id;
    const retrieve = (ids: unknown) =>
      v2(key(), `/v2/livedocs/${ld}/resources/retrieve`, { body: { query: 'coffee', resource_ids: ids } });
    await expectError(await retrieve([]), 400, 'INVALID_PARAMETER');
    expect((await retrieve([one])).status).toBe(200);
    expect((await retrieve(Array.from({ length: 50 }, () => one))).status).toBe(200);
    await expectError(await retrieve(Array.from({ length: 51 }, () => one)), 400, 'INVALID_PARAMETER');
    await expectError(await retrieve(['res_nope']), 404, 'RESOURCE_NOT_FOUND');
    await expectError(await v2(key(), `/v2/livedocs/${ld}/resources/retrieve`, { body: {} }), 400, 'MISSING_PARAMETER');
  });

  it('unknown LiveDocs are LIVEDOC_NOT_FOUND; other users see only what is shared with them', async () => {
    await expectError(await v2(key(), '/v2/livedocs/ld_missing/resources'), 404, 'LIVEDOC_NOT_FOUND');
    await expectError(
      await v2(key(), '/v2/livedocs/ld_missing', { method: 'PUT', body: { name: 'x' } }),
      404,
      'LIVEDOC_NOT_FOUND',
    );
    const dataArgs = ['--data-dir', p.dataDir];
    expect((await p.cli(['serve', 'users', 'create', 'bob', ...dataArgs])).exitCode).toBe(0);
    const token = ok(await p.cli(['serve', 'token', 'bob', ...dataArgs])).stdout.trim();
    const bobKey = json(
      await p.cli(['keys', 'create', '--name', 'bob', '--json'], {
        env: { FACET_ACCESS_TOKEN: token, FACET_BASE_URL: p.url, FACET_PROFILE: 'none' },
      }),
    ).key;
    await expectError(await v2(bobKey, `/v2/livedocs/${ld}/resources`), 404, 'LIVEDOC_NOT_FOUND');
    expect(json(await p.cli(['livedocs', 'list', '--json'], { env: { FACET_API_KEY: bobKey } })).total).toBe(0);
    const bobChat = json(
      await p.cli(['chat', 'Eyjafjallajökull eruption', '--json'], { env: { FACET_API_KEY: bobKey } }),
    );
    expect(bobChat.resources).toEqual([]);

    const shared = await p.cli(['serve', 'share', ld, 'bob', ...dataArgs]);
    expect(shared.exitCode, shared.stderr).toBe(0);
    const list = json(await p.cli(['livedocs', 'list', '--json'], { env: { FACET_API_KEY: bobKey } }));
    expect(list.items).toEqual([expect.objectContaining({ short_id: ld, is_shared: true })]);
    expect(
      json(await p.cli(['livedocs', 'list', '--json'])).items.find((d: { short_id: string }) => d.short_id === ld)
        .is_shared,
    ).toBe(false);
    const hits = json(
      await p.cli(['livedocs', 'resources', 'retrieve', ld, 'spring tides', '--json'], {
        env: { FACET_API_KEY: bobKey },
      }),
    );
    expect(hits[0].title).toBe('Tides');
    const write = await p.cli(['livedocs', 'resources', 'add-doc', ld, '--content', 'x'], {
      env: { FACET_API_KEY: bobKey },
    });
    expect(write.exitCode).toBe(3);
    expect(write.stderr).toMatch(/FORBIDDEN/);
    expect((await p.cli(['serve', 'share', ld, 'bob', '--revoke', ...dataArgs])).exitCode).toBe(0);
    await expectError(await v2(bobKey, `/v2/livedocs/${ld}`), 404, 'LIVEDOC_NOT_FOUND');
  });
});
