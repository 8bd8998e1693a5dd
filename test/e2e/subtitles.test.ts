import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

const CUES = [
  { start: 0, duration: 2.5, text: 'Welcome to the tide pool.' },
  { start: 2.5, duration: 3, text: 'Crabs hide under the rocks.' },
  { start: 6, duration: 2.25, text: 'Starfish cling to the stones.' },
];
const clock = (s: number, sep: string) => {
  const ms = Math.round(s * 1000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(Math.floor(ms / 3600000))}:${p(Math.floor(ms / 60000) % 60)}:${p(Math.floor(ms / 1000) % 60)}${sep}${p(ms % 1000, 3)}`;
};
const VTT =
  'WEBVTT\nKind: captions\nLanguage: en\n\n' +
  CUES.map((c) => `${clock(c.start, '.')} --> ${clock(c.start + c.duration, '.')}\n<c>${c.text}</c>`).join('\n\n') +
  '\n';
const SRT =
  CUES.map((c, i) => `${i + 1}\n${clock(c.start, ',')} --> ${clock(c.start + c.duration, ',')}\n${c.text}`).join(
    '\n\n',
  ) + '\n';
const JSON3 = JSON.stringify({
  wireMagic: 'pb3',
  events: [
    { tStartMs: 0, dDurationMs: 8250, id: 1, wWinId: 1 },
    ...CUES.flatMap((c) => [
      {
        tStartMs: c.start * 1000,
        dDurationMs: c.duration * 1000,
        segs: [{ utf8: c.text.split(' ')[0] + ' ' }, { utf8: c.text.split(' ').slice(1).join(' '), tOffsetMs: 400 }],
      },
      { tStartMs: c.start * 1000 + 10, dDurationMs: 5, aAppend: 1, segs: [{ utf8: '\n' }] },
    ]),
  ],
});
const SRV3 = `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>${CUES.map((c) => `<p t="${c.start * 1000}" d="${c.duration * 1000}">${c.text.replace('the', '<s>the</s>')}</p>`).join('')}</body></timedtext>`;
// Generated captions scroll: each cue repeats the line shown before it.
const ROLLING = `WEBVTT\nKind: captions\nLanguage: en\n\n00:00:00.000 --> 00:00:02.000\nthe tide comes in\n\n00:00:02.000 --> 00:00:02.010\nthe tide comes in\n\n00:00:02.010 --> 00:00:04.000\nthe tide comes in\nand goes out again\n\n00:00:04.000 --> 00:00:06.000\nand goes out again\ntwice every day\n`;

let p: Platform;
let dir: string;
let upstreamHits = 0;
let upstreamMode: 'ok' | 'broken' = 'ok';
let endlessSent = 0;
const upstream = http.createServer((req, res) => {
  upstreamHits++;
  const url = new URL(req.url!, 'http://x');
  if (req.headers.authorization !== 'Bearer up-key') return void res.writeHead(401).end('{}');
  if (upstreamMode === 'broken')
    return void res
      .writeHead(503, { 'content-type': 'application/json' })
      .end(JSON.stringify({ status: 'error', code: 'SERVICE_UNAVAILABLE', message: 'down for maintenance' }));
  if (url.searchParams.get('video_code') === 'endlessVid1') {
    // An answer that never ends: JSON text streamed until the reader hangs up (at most 256 MB).
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"status":"ok","data":{"title":"Endless","contents":[');
    const cue = Buffer.from('{"start":0,"duration":1,"text":"' + 'again '.repeat(1000) + '"},');
    let left = Math.floor((256 * 1024 * 1024) / cue.length);
    res.on('close', () => (left = 0));
    const pump = () => {
      while (left-- > 0) {
        endlessSent += cue.length;
        if (!res.write(cue)) return void res.once('drain', pump);
      }
      res.end(']}}');
    };
    return pump();
  }
  if (url.searchParams.get('video_code') === 'upstreamVid') {
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        status: 'ok',
        message: null,
        data: { title: 'From upstream', contents: [{ start: 1, duration: 2, text: 'upstream words' }] },
      }),
    );
  }
  res
    .writeHead(400, { 'content-type': 'application/json' })
    .end(JSON.stringify({ status: 'error', code: 'YOUTUBE_SUBTITLING_FAILED', message: 'none', request_id: 'r' }));
});

beforeAll(async () => {
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  p = await startPlatform({ env: { FACET_UPSTREAM_SUBTITLES_BASE_URL: up, FACET_UPSTREAM_SUBTITLES_KEY: 'up-key' } });
  dir = tempDir('subs');
  for (const [name, body] of Object.entries({
    'talk.vtt': VTT,
    'talk.srt': SRT,
    'talk.json3': JSON3,
    'talk.srv3': SRV3,
    'rolling.vtt': ROLLING,
  }))
    writeFileSync(path.join(dir, name), body);
}, 60_000);
afterAll(async () => {
  p?.cleanup();
  await new Promise<void>((r) => upstream.close(() => r()));
});

const importFile = (code: string, file: string, extra: string[] = []) =>
  p.cli(['serve', 'subtitles', 'import', code, path.join(dir, file), '--data-dir', p.dataDir, '--json', ...extra]);
const get = (code: string, extra: string[] = []) => p.cli(['subtitles', code, '--json', '--with-time', ...extra]);
const api = (qs: string) =>
  p.fetch(`/v2/youtube/subtitling?${qs}`, { headers: { authorization: `Bearer ${p.boot.api_key}` } });

describe('subtitles', () => {
  it('VTT, SRT, json3 and srv3 imports give the same cues', async () => {
    const formats = ['talk.vtt', 'talk.srt', 'talk.json3', 'talk.srv3'];
    for (const [i, file] of formats.entries()) {
      const code = `tidepool00${i}`;
      expect(okJson(await importFile(code, file, ['--language', 'en', '--title', 'Tide pool']))).toMatchObject({
        cues: 3,
        language: 'en',
        kind: 'manual',
      });
      const data = okJson(await get(code));
      expect(data).toEqual({ title: 'Tide pool', contents: CUES, language: 'en', kind: 'manual' });
    }
  });

  it('generated captions: rolling-window repeats are collapsed', async () => {
    ok(await importFile('rollingVid1', 'rolling.vtt', ['--kind', 'generated']));
    const data = okJson(await get('rollingVid1'));
    expect(data.kind).toBe('generated');
    expect(data.contents).toEqual([
      { start: 0, duration: 2.01, text: 'the tide comes in' },
      { start: 2.01, duration: 1.99, text: 'and goes out again' },
      { start: 4, duration: 2, text: 'twice every day' },
    ]);
  });

  it('with_time false leaves out start and duration; text, srt and vtt renderings', async () => {
    const plain = okJson(await p.cli(['subtitles', 'tidepool000', '--json']));
    expect(plain.contents[0]).toEqual({ text: 'Welcome to the tide pool.' });
    const text = ok(await p.cli(['subtitles', 'tidepool000']));
    expect(text.stdout).toBe(CUES.map((c) => c.text).join('\n') + '\n');
    const srt = ok(await p.cli(['subtitles', 'tidepool000', '--format', 'srt']));
    expect(srt.stdout).toContain('2\n00:00:02,500 --> 00:00:05,500\nCrabs hide under the rocks.');
    const vtt = ok(await p.cli(['subtitles', 'tidepool000', '--format', 'vtt']));
    expect(vtt.stdout.startsWith('WEBVTT')).toBe(true);
    expect(vtt.stdout).toContain('00:00:06.000 --> 00:00:08.250\nStarfish cling to the stones.');
  });

  it('seeded videos answer on a fresh platform; language fallback: manual first, zh-CN to zh', async () => {
    expect(okJson(await get('facetDemo01'))).toMatchObject({ language: 'en', kind: 'manual' });
    expect(okJson(await get('facetDemo01', ['--language', 'de']))).toMatchObject({ language: 'de', kind: 'manual' });
    expect(okJson(await get('facetDemo01', ['--language', 'en-GB']))).toMatchObject({ language: 'en', kind: 'manual' });
    expect(okJson(await get('facetDemo02', ['--language', 'zh-CN']))).toMatchObject({ language: 'zh', kind: 'manual' });
    // Only a generated track: chosen when no language is asked.
    expect(okJson(await get('facetDemo03'))).toMatchObject({ language: 'en', kind: 'generated' });
  });

  it('errors: validation, a missing video, a missing language listing the existing ones (400)', async () => {
    const bad = await api('video_code=short');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      status: 'error',
      code: 'YOUTUBE_SUBTITLING_FAILED',
      message: expect.stringMatching(/video_code/),
    });
    const badTime = await api('video_code=facetDemo01&with_time=yes');
    expect(badTime.status).toBe(400);
    expect((await badTime.json()).code).toBe('YOUTUBE_SUBTITLING_FAILED');
    const missing = await api('video_code=noSuchVideo');
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe('no subtitles for video noSuchVideo');
    // The CLI: not found's exit code (4) for a video or language with no subtitles; a bad id stays 1.
    const unknown = await p.cli(['subtitles', 'noSuchVideo']);
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toContain('no subtitles for video noSuchVideo');
    expect((await p.cli(['subtitles', 'short'])).exitCode).toBe(1);
    const lang = await p.cli(['subtitles', 'facetDemo01', '--language', 'fr']);
    expect(lang.exitCode).toBe(4);
    expect(lang.stderr).toContain(
      'no subtitles in fr for video facetDemo01; available: en (manual), en (generated), de (manual)',
    );
  });

  it('the upstream is asked when the store has nothing, its answer kept; its failure is a 502', async () => {
    const before = upstreamHits;
    const first = okJson(await get('upstreamVid'));
    expect(first).toMatchObject({
      title: 'From upstream',
      contents: [{ start: 1, duration: 2, text: 'upstream words' }],
    });
    expect(upstreamHits).toBe(before + 1);
    okJson(await get('upstreamVid'));
    expect(upstreamHits).toBe(before + 1);
    upstreamMode = 'broken';
    const res = await api('video_code=otherVideo1');
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      code: 'YOUTUBE_SUBTITLING_FAILED',
      message: expect.stringMatching(/upstream failed: .*HTTP 503: down for maintenance/),
    });
    upstreamMode = 'ok';
  });

  it("the upstream's answer is read under a cap: an endless answer is a 502 naming the limit, the sender cut off", async () => {
    const started = Date.now();
    const res = await api('video_code=endlessVid1');
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      code: 'YOUTUBE_SUBTITLING_FAILED',
      message: expect.stringMatching(
        /^the subtitle upstream failed: the response from http:\/\/127\.0\.0\.1:\d+\/v2\/youtube\/subtitling\?\S+ is larger than 15 MB$/,
      ),
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(endlessSent).toBeLessThan(64 * 1024 * 1024);
    // The platform is still answering.
    expect((await api('video_code=facetDemo01')).status).toBe(200);
  }, 60_000);

  it('import refuses a bad file and a bad video id with clear errors', async () => {
    writeFileSync(path.join(dir, 'junk.vtt'), 'not captions at all');
    const junk = await importFile('junkVideo01', 'junk.vtt');
    expect(junk.exitCode).toBe(1);
    expect(junk.stderr).toMatch(/junk\.vtt: not a WebVTT file/);
    const code = await importFile('bad id', 'talk.vtt');
    expect(code.exitCode).toBe(2);
  });
});
