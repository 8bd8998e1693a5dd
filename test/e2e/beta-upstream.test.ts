import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, type Platform } from '../helpers/platform.js';

/** A fake compatible provider on 127.0.0.1: records requests, answers per path. */
const seen: Array<{ method: string; url: string; auth?: string; body: string }> = [];
const ENVELOPE = {
  version: '0.1.20260101',
  status_code: 20000,
  status_message: 'Ok.',
  time: '0.1 sec.',
  cost: 0.02,
  tasks_count: 1,
  tasks_error: 0,
  upstream_only_field: 'kept',
  tasks: [
    {
      id: '11111111-2222-3333-4444-555555555555',
      status_code: 20000,
      status_message: 'Ok.',
      time: '0.1 sec.',
      cost: 0.02,
      result_count: 1,
      path: ['v3', 'backlinks'],
      data: { target: 'up.example' },
      result: [
        {
          target: 'up.example',
          mode: 'as_is',
          custom_mode: null,
          total_count: 1,
          items_count: 1,
          search_after_token: null,
          new_field: 42,
          items: [{ type: 'backlink', domain_from: 'upstream.example', rank: 7 }],
        },
      ],
    },
  ],
};
const TRADE = {
  ticker: 'UP',
  issuer: 'Upstream Inc.',
  name: 'From Upstream',
  title: 'Director',
  is_board_director: true,
  transaction_date: '2026-01-02',
  transaction_shares: -10,
  transaction_price_per_share: 5,
  transaction_value: 50,
  shares_owned_before_transaction: 100,
  shares_owned_after_transaction: 90,
  security_title: 'Common Stock',
  filing_date: '2026-01-03',
  extra: true,
};
let endlessSent = 0;
const fake = http.createServer((req, res) => {
  if (req.url!.startsWith('/v1/beta/financial/insider-trades?ticker=ENDLESS')) {
    // An answer that never ends, streamed until the reader hangs up (at most 256 MB).
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"insider_trades":[');
    const row = Buffer.from(JSON.stringify(TRADE) + ',');
    let left = Math.floor((256 * 1024 * 1024) / row.length);
    res.on('close', () => (left = 0));
    const pump = () => {
      while (left-- > 0) {
        endlessSent += row.length;
        if (!res.write(row)) return void res.once('drain', pump);
      }
      res.end('{}]}');
    };
    return pump();
  }
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
    const path = req.url!.split('?')[0];
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (path === '/v1/beta/seo/backlinks/backlinks/live') return json(200, ENVELOPE);
    if (path === '/v1/beta/financial/insider-trades') return json(200, { insider_trades: [TRADE] });
    if (path === '/v1/beta/financial/financials/income-statements')
      return json(404, { error: 'Not found', message: 'ticker ZZZ is not covered' });
    if (path === '/v1/beta/webanalytics/search/landing-pages') return json(500, { message: 'database on fire' });
    if (path === '/v1/beta/seo/domain_analytics/whois/overview/live')
      return json(401, { status_message: 'bad credentials' });
    json(404, { message: 'no such path' });
  });
});

let up: Platform;
let down: Platform;
beforeAll(async () => {
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  // No --allow-fetch-from 127.0.0.1: the upstream the operator configured is allowed as it is.
  up = await startPlatform({
    allowLocalFetch: false,
    args: ['--beta-upstream-url', base],
    env: { FACET_BETA_UPSTREAM_KEY: 'login:secret' },
  });
  // A provider that is not there: a port nothing listens on.
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  down = await startPlatform({ args: ['--beta-upstream-url', `http://127.0.0.1:${port}`] });
});
afterAll(async () => {
  up?.cleanup();
  down?.cleanup();
  await new Promise((r) => fake.close(r));
});

const auth = (p: Platform) => ({ authorization: `Bearer ${p.boot.api_key}` });

describe('upstream mode', () => {
  it('forwards the tasks with the configured credentials and passes the envelope through unchanged', async () => {
    const env = okJson(await up.cli(['beta', 'backlinks', 'up.example', '--limit', '5', '--raw']));
    expect(env).toEqual(ENVELOPE);
    const req = seen.find((s) => s.url === '/v1/beta/seo/backlinks/backlinks/live')!;
    expect(req.method).toBe('POST');
    expect(req.auth).toBe(`Basic ${Buffer.from('login:secret').toString('base64')}`);
    expect(JSON.parse(req.body)).toEqual([{ target: 'up.example', limit: 5 }]);
  });

  it('passes GET queries through and results unchanged', async () => {
    const trades = okJson(await up.cli(['beta', 'insiders', 'UP', '--limit', '3', '--json']));
    expect(trades).toEqual([TRADE]);
    expect(seen.some((s) => s.url === '/v1/beta/financial/insider-trades?ticker=UP&limit=3')).toBe(true);
  });

  it('maps failures: 404 stays 404, a server error, refused credentials or an answer past the cap is 502, unreachable is 503', async () => {
    const nf = await up.fetch('/v1/beta/financial/financials/income-statements?ticker=ZZZ&period=annual', {
      headers: auth(up),
    });
    expect(nf.status).toBe(404);
    expect(await nf.json()).toEqual({ error: 'NOT_FOUND', message: 'upstream: ticker ZZZ is not covered' });
    const boom = await up.fetch(
      '/v1/beta/webanalytics/search/landing-pages?domain=a.com&start_date=2026-01&end_date=2026-02&limit=5',
      { headers: auth(up) },
    );
    expect(boom.status).toBe(502);
    expect((await boom.json()).error).toMatchObject({
      code: 'UPSTREAM_FAILED',
      message: expect.stringMatching(/HTTP 500: database on fire/),
    });
    const creds = await up.fetch('/v1/beta/seo/domain_analytics/whois/overview/live', {
      method: 'POST',
      headers: { ...auth(up), 'content-type': 'application/json' },
      body: '[{}]',
    });
    expect(creds.status).toBe(502);
    expect((await creds.json()).error.message).toMatch(/refused the configured credentials: bad credentials/);
    const endless = await up.fetch('/v1/beta/financial/insider-trades?ticker=ENDLESS&limit=5', { headers: auth(up) });
    expect(endless.status).toBe(502);
    expect(await endless.json()).toMatchObject({
      error: 'UPSTREAM_FAILED',
      message: expect.stringMatching(
        /^the beta data upstream failed: the response from http:\/\/127\.0\.0\.1:\d+\/v1\/beta\/financial\/insider-trades\?\S+ is larger than 15 MB$/,
      ),
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(endlessSent).toBeLessThan(64 * 1024 * 1024);
    const gone = await down.cli(['beta', 'volume', 'tea']);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toMatch(/cannot reach the beta data upstream.*HTTP 503/);
  });
});
