import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

/** A callback receiver on 127.0.0.1: records every request; /flaky fails its first request. */
interface Hit {
  method: string;
  url: string;
  encoding?: string;
  body: Buffer;
}
const hits: Hit[] = [];
let flakyCalls = 0;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    hits.push({
      method: req.method!,
      url: req.url!,
      encoding: req.headers['content-encoding'] as string | undefined,
      body: Buffer.concat(chunks),
    });
    if (req.url!.startsWith('/flaky') && flakyCalls++ === 0) return void res.writeHead(500).end('not yet');
    if (req.url!.startsWith('/down')) return void res.writeHead(503).end();
    res.writeHead(200).end('ok');
  });
});
let base = '';

let p: Platform;
beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  p = await startPlatform();
});
afterAll(async () => {
  p?.cleanup();
  await new Promise((r) => receiver.close(r));
});

const until = async <T>(probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('review tasks end to end', () => {
  it('task_post -> ready once -> pingback and gzip postback with $id/$tag -> get by id leaves the ready list', async () => {
    const tag = 'batch 7/a&b';
    const posted = ok(
      await p.cli([
        'beta',
        'reviews',
        'post',
        'example.com',
        '--depth',
        '40',
        '--sort',
        'recency',
        '--tag',
        tag,
        '--pingback',
        `${base}/ping?id=$id&tag=$tag`,
        '--postback',
        `${base}/post/$id?tag=$tag`,
      ]),
    );
    const id = posted.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const ping = await until(async () => hits.find((h) => h.url.startsWith('/ping')));
    expect(ping.method).toBe('GET');
    expect(ping.url).toBe(`/ping?id=${id}&tag=${encodeURIComponent(tag)}`);
    const post = await until(async () => hits.find((h) => h.url.startsWith('/post/')));
    expect(post.method).toBe('POST');
    expect(post.url).toBe(`/post/${id}?tag=${encodeURIComponent(tag)}`);
    expect(post.encoding).toBe('gzip');
    const delivered = JSON.parse(gunzipSync(post.body).toString('utf8'));
    expect(delivered.tasks[0]).toMatchObject({
      id,
      status_code: 20000,
      data: { domain: 'example.com', depth: 40, tag },
    });
    expect(delivered.tasks[0].result[0].items).toHaveLength(40);

    const ready = okJson(await p.cli(['beta', 'reviews', 'ready', '--json']));
    expect(ready.filter((t: any) => t.id === id)).toHaveLength(1);
    expect(ready.find((t: any) => t.id === id).tag).toBe(tag);

    const [result] = okJson(await p.cli(['beta', 'reviews', 'get', id, '--json']));
    expect(result).toEqual(delivered.tasks[0].result[0]);
    const dates = result.items.map((i: any) => i.timestamp);
    expect(dates).toEqual([...dates].sort().reverse());
    const after = okJson(await p.cli(['beta', 'reviews', 'ready', '--json']));
    expect(after.some((t: any) => t.id === id)).toBe(false);
  });

  it('a failing callback is retried with backoff and every attempt is logged', async () => {
    const id = ok(
      await p.cli([
        'beta',
        'reviews',
        'post',
        'shop.example.org',
        '--pingback',
        `${base}/flaky/$id`,
        '--postback',
        `${base}/down/$id`,
      ]),
    ).stdout.trim();
    const log = await until(async () => {
      const l = okJson(await p.cli(['beta', 'reviews', 'callbacks', id, '--json']));
      return l.filter((d: any) => d.kind === 'postback').length === 4 &&
        l.some((d: any) => d.kind === 'pingback' && d.delivered)
        ? l
        : undefined;
    }, 30_000);
    const pings = log.filter((d: any) => d.kind === 'pingback');
    expect(pings.map((d: any) => [d.attempt, d.delivered, d.status_code])).toEqual([
      [1, false, 500],
      [2, true, 200],
    ]);
    const posts = log.filter((d: any) => d.kind === 'postback');
    expect(posts.map((d: any) => d.attempt)).toEqual([1, 2, 3, 4]);
    expect(posts.every((d: any) => !d.delivered && d.error === 'HTTP 503')).toBe(true);
    // Waits double: 0.5 s, 1 s, 2 s between the four attempts.
    const gaps = posts.slice(1).map((d: any, i: number) => Date.parse(d.at) - Date.parse(posts[i].at));
    expect(gaps[2]).toBeGreaterThan(gaps[0]);
  });

  it('--wait polls until the reviews are ready; limits and unknown ids are task errors', async () => {
    const [r] = okJson(
      await p.cli([
        'beta',
        'reviews',
        'post',
        'cafe.example.com',
        '--platform',
        'trustpilot',
        '--depth',
        '200',
        '--wait',
        '--interval',
        '0.2',
        '--json',
      ]),
    );
    expect(r.items).toHaveLength(Math.min(200, r.reviews_count));
    const deep = await p.cli(['beta', 'reviews', 'post', 'example.com', '--depth', '201']);
    expect(deep.exitCode).toBe(2);
    const res = await p.fetch('/v1/beta/seo/business_data/google/reviews/task_post', {
      method: 'POST',
      headers: { authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify([
        { domain: 'example.com', depth: 201 },
        { domain: 'example.com', priority: 3 },
        { domain: 'example.com', depth: 200, priority: 2 },
      ]),
    });
    const env = await res.json();
    expect(env.tasks.map((t: any) => t.status_code)).toEqual([40503, 40503, 20100]);
    expect(env.tasks[2].result).toBeNull();
    const missing = await p.cli(['beta', 'reviews', 'get', '00000000-0000-0000-0000-000000000000']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/task error 40400/);
    const platform = await p.fetch('/v1/beta/seo/business_data/yelp/reviews/tasks_ready', {
      headers: { authorization: `Bearer ${p.boot.api_key}` },
    });
    expect((await platform.json()).tasks[0].status_code).toBe(40401);
  });
});
