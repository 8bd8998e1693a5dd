import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Bad input never gets a 500 and is never silently dropped: malformed multipart, parts a form does
 * not take, characters an SVG cannot hold, numbers written as anything but decimal digits. Each
 * refusal comes in its surface's own shape (image service 422 {detail: [...]}, /v2 400 envelope,
 * /api/v1 its family's error).
 */
let p: Platform;
let projectId: string;
let ld: string;

const imageAuth = () => ({ 'x-api-key': p.boot.api_key });
const v2Auth = () => ({ authorization: `Bearer ${p.boot.api_key}` });

beforeAll(async () => {
  p = await startPlatform();
  const project = await p.fetch('/projects', {
    method: 'POST',
    headers: { ...imageAuth(), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bad input' }),
  });
  expect(project.status).toBe(201);
  projectId = (await project.json()).id;
  const livedoc = await p.fetch('/v2/livedocs', {
    method: 'POST',
    headers: { ...v2Auth(), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bad input' }),
  });
  ld = (await livedoc.json()).data.short_id;
});
afterAll(() => p?.cleanup());

interface Upload {
  name: string;
  path: () => string;
  headers: () => Record<string, string>;
  /** Checks a refusal is a 4xx in the surface's shape and returns its message. */
  refused(res: Response): Promise<string>;
  /** A form the endpoint accepts. */
  good: () => FormData;
}

async function imageRefusal(res: Response): Promise<string> {
  expect(res.status).toBe(422);
  const body = await res.json();
  expect(body.detail).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) }),
    ]),
  );
  return body.detail.map((d: { loc: string[]; msg: string }) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
}

async function v2Refusal(res: Response): Promise<string> {
  expect(res.status).toBe(400);
  const body = await res.json();
  expect(body).toMatchObject({
    status: 'error',
    code: expect.stringMatching(/^(INVALID|MISSING)_PARAMETER$/),
    request_id: expect.any(String),
  });
  return body.message;
}

const file = (text: string, name = 'notes.md') => [new Blob([text], { type: 'text/markdown' }), name] as const;

const UPLOADS: Upload[] = [
  {
    name: 'POST /tasks',
    path: () => '/tasks',
    headers: imageAuth,
    refused: imageRefusal,
    good: () => {
      const f = new FormData();
      f.append('kind', 'illustration');
      f.append('prompt', 'a quiet harbour');
      f.append('project_id', projectId);
      return f;
    },
  },
  {
    name: 'POST /projects/{id}/files',
    path: () => `/projects/${projectId}/files`,
    headers: imageAuth,
    refused: imageRefusal,
    good: () => withFile(new FormData()),
  },
  {
    name: 'LiveDoc upload',
    path: () => `/v2/livedocs/${ld}/resources/upload`,
    headers: v2Auth,
    refused: v2Refusal,
    good: () => withFile(new FormData()),
  },
  {
    name: 'LiveDoc upload-doc',
    path: () => `/v2/livedocs/${ld}/resources/upload-doc`,
    headers: v2Auth,
    refused: v2Refusal,
    good: () => withFile(new FormData()),
  },
];

function withFile(f: FormData, field = 'file', text = '# Notes\n\nSome text.'): FormData {
  f.append(field, ...file(text));
  return f;
}

const send = (u: Upload, body: FormData | string, contentType?: string) =>
  p.fetch(u.path(), {
    method: 'POST',
    headers: { ...u.headers(), ...(contentType ? { 'content-type': contentType } : {}) },
    body,
    signal: AbortSignal.timeout(10_000),
  });

describe('malformed multipart is a 4xx on every upload endpoint', () => {
  const bodies: Array<[string, string, string]> = [
    [
      'no boundary',
      'multipart/form-data',
      '--x\r\nContent-Disposition: form-data; name="kind"\r\n\r\nillustration\r\n--x--\r\n',
    ],
    [
      'a truncated body',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\nhalf a fi',
    ],
    ['a garbage body', 'multipart/form-data; boundary=x', '\u0000\u0001 this is not multipart at all'],
    ['a boundary over 256 bytes', `multipart/form-data; boundary=${'b'.repeat(300)}`, 'whatever'],
  ];
  for (const u of UPLOADS) {
    it(u.name, async () => {
      for (const [what, type, body] of bodies) {
        const res = await send(u, body, type);
        expect(await u.refused(res), what).toMatch(/malformed multipart/);
      }
      // and a well-formed request still works
      const ok = await send(u, u.good());
      expect(ok.status, await ok.clone().text()).toBeLessThan(300);
    });
  }
});

describe('a part the form does not take is refused, not dropped', () => {
  for (const u of UPLOADS) {
    it(u.name, async () => {
      const unknownText = u.good();
      unknownText.append('colour', 'blue');
      expect(await u.refused(await send(u, unknownText))).toMatch(/colour.*unknown field "colour"/);

      const unknownFile = u.good();
      unknownFile.append('attachment', ...file('x'));
      expect(await u.refused(await send(u, unknownFile))).toMatch(/attachment.*unknown file field "attachment"/);

      const empty = u.name === 'POST /tasks' ? withFile(u.good(), 'files', '') : withFile(new FormData(), 'file', '');
      expect(await u.refused(await send(u, empty))).toMatch(/is empty/);
    });
  }

  it('a second file part on a LiveDoc upload, and a text field given twice', async () => {
    for (const u of UPLOADS.slice(2)) {
      expect(await u.refused(await send(u, withFile(u.good())))).toMatch(/only one "file" part/);
      const twice = u.good();
      twice.append('title', 'one');
      twice.append('title', 'two');
      expect(await u.refused(await send(u, twice))).toMatch(/"title" was given twice/);
    }
    const task = UPLOADS[0].good();
    task.append('prompt', 'another');
    expect(await imageRefusal(await send(UPLOADS[0], task))).toMatch(/"prompt" was given twice/);
  });
});

describe('a form sent to a route that takes JSON', () => {
  // Only upload routes parse multipart (each in a scope of its own); a JSON route answers a form
  // with 415 in its surface's shape, whatever the body holds, and never reads it as an empty body.
  it("is a 415 in the surface's own shape: /v2, the image service, /api/v1", async () => {
    const form = () => {
      const f = new FormData();
      f.append('name', 'from a form');
      return f;
    };
    const v2 = await p.fetch('/v2/livedocs', { method: 'POST', headers: v2Auth(), body: form() });
    expect(v2.status).toBe(415);
    expect(await v2.json()).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/takes application\/json, not multipart\/form-data/),
    });
    const listed = await p.fetch('/v2/livedocs', { headers: v2Auth() });
    expect((await listed.json()).data.items.map((d: { name: string }) => d.name)).not.toContain('from a form');

    const image = await p.fetch('/projects', { method: 'POST', headers: imageAuth(), body: form() });
    expect(image.status).toBe(415);
    expect(JSON.stringify(await image.json())).toMatch(/multipart\/form-data/);

    const model = await p.fetch('/api/v1/chat/completions', { method: 'POST', headers: v2Auth(), body: form() });
    expect(model.status).toBe(415);
    expect((await model.json()).error).toMatchObject({ message: expect.stringMatching(/multipart\/form-data/) });

    // A route that takes JSON or a form names both when sent something else.
    const page = await p.fetch('/v2/landing_page', {
      method: 'POST',
      headers: { ...v2Auth(), 'content-type': 'application/xml' },
      body: '<page/>',
    });
    expect(page.status).toBe(415);
    expect((await page.json()).message).toMatch(
      /takes application\/json or multipart\/form-data, not application\/xml/,
    );
  });
});

describe('a NUL no store can hold', () => {
  // PostgreSQL refuses NUL in text: a LiveDoc named so answered 500 there, and SQLite stored it.
  it("is a 400 in the surface's shape, and nothing is created", async () => {
    const res = await p.fetch('/v2/livedocs', {
      method: 'POST',
      headers: { ...v2Auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'a\u0000b' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      status: 'error',
      code: 'INVALID_PARAMETER',
      message: expect.stringMatching(/NUL/),
    });
    const list = await (await p.fetch('/v2/livedocs?size=100', { headers: v2Auth() })).json();
    expect(JSON.stringify(list)).not.toContain('a\\u0000b');
  });
});

describe('characters XML cannot hold, in a prompt that becomes an SVG', () => {
  const bad: Array<[string, string, number]> = [
    ['NUL', 'a\u0000b', 2],
    ['a C0 control', 'sun \u0007 set', 5],
    ['vertical tab', 'x\u000By', 2],
    ['U+FFFE', 'ok \uFFFE', 4],
    ['U+FFFF', '\uFFFF', 1],
    ['a lone high surrogate', 'ab\uD83D', 3],
    ['a lone low surrogate', '\uDE00z', 1],
    ['after an emoji (counted as one character)', '\u{1F600}\u0001', 2],
  ];

  it('/api/v1/images/generations refuses them with a 400 naming the field and the position', async () => {
    for (const [what, prompt, position] of bad) {
      const res = await p.fetch('/api/v1/images/generations', {
        method: 'POST',
        headers: { ...v2Auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'facet-illustration-1', prompt, size: '64x64' }),
      });
      expect(res.status, what).toBe(400);
      const body = await res.json();
      expect(body.error, what).toMatchObject({ type: 'invalid_request_error', param: 'prompt' });
      expect(body.error.message, what).toMatch(
        new RegExp(`prompt: contains U\\+[0-9A-F]{4} at character ${position}\\b`),
      );
    }
    // Tabs, line breaks and emoji are text like any other.
    const ok = await p.fetch('/api/v1/images/generations', {
      method: 'POST',
      headers: { ...v2Auth(), 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'facet-illustration-1',
        prompt: 'tab\there\nline \u{1F600} ok\r\n',
        size: '64x64',
      }),
    });
    expect(ok.status, await ok.clone().text()).toBe(200);
  });

  it('POST /tasks refuses them with a 422 on body.prompt instead of a task that fails in the renderer', async () => {
    // Multipart text is UTF-8, which cannot carry a lone surrogate (FormData sends U+FFFD for it).
    for (const [what, prompt, position] of bad.filter(([w]) => !w.includes('surrogate'))) {
      const f = UPLOADS[0].good();
      f.set('prompt', prompt);
      const msg = await imageRefusal(await send(UPLOADS[0], f));
      expect(msg, what).toMatch(new RegExp(`body\\.prompt: contains U\\+[0-9A-F]{4} at character ${position}\\b`));
    }
  });
});

describe('numbers are decimal integers only', () => {
  const refusedValues = ['0x10', '%2B5', '%205%20', '1e1', '', '5.0', '-0x1'];

  it('in image-service, /v2 and admin queries, and in form fields', async () => {
    const task = await (await send(UPLOADS[0], UPLOADS[0].good())).json();
    const routes: Array<[string, (v: string) => string, Record<string, string>, (r: Response) => Promise<string>]> = [
      ['tasks limit', (v) => `/tasks?limit=${v}`, imageAuth(), imageRefusal],
      ['task logs after', (v) => `/tasks/${task.id}/logs?after=${v}`, imageAuth(), imageRefusal],
      ['livedocs page', (v) => `/v2/livedocs?page=${v}`, v2Auth(), v2Refusal],
      ['resources size', (v) => `/v2/livedocs/${ld}/resources?size=${v}`, v2Auth(), v2Refusal],
      [
        'usage limit',
        (v) => `/admin/api-key-usage?limit=${v}`,
        { 'x-api-key': p.boot.api_key, 'x-admin-key': p.boot.admin_key },
        imageRefusal,
      ],
    ];
    for (const [name, url, headers, refused] of routes) {
      for (const v of refusedValues) {
        const msg = await refused(await p.fetch(url(v), { headers }));
        expect(msg, `${name}=${v}`).toMatch(/decimal integer/);
      }
      const ok = await p.fetch(url('5'), { headers });
      expect(ok.status, `${name}=5`).toBe(200);
    }
    const f = UPLOADS[0].good();
    f.append('count', '0x2');
    expect(await imageRefusal(await send(UPLOADS[0], f))).toMatch(/body\.count: must be a decimal integer/);
  });
});
