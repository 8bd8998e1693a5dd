import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3FileStore } from '../../../src/server/files/s3/s3-file-store.js';
import { parseS3Config } from '../../../src/server/files/s3/s3-config.js';
import { ObjectStoreError } from '../../../src/server/files/file-store.js';
import { startObjectStore, type TestObjectStore } from '../../helpers/s3rver.js';

/** A loopback port nothing listens on: the kernel's pick, closed again. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The S3 implementation of the file store against a real S3-compatible server (s3rver) on 127.0.0.1. */
describe('S3FileStore against s3rver', () => {
  let s3: TestObjectStore;
  let scratch: string;
  let store: S3FileStore;
  // A second of retries, not a minute of them: these stores are refused on purpose.
  const storeAt = (url: string, env: Record<string, string> = s3.env) =>
    new S3FileStore(parseS3Config({ objectStore: url, retryWindowMs: 1000 }, env), scratch);

  beforeAll(async () => {
    s3 = await startObjectStore(['facet-unit', 'facet-other']);
    scratch = mkdtempSync(path.join(os.tmpdir(), 'facet-s3-scratch-'));
    store = storeAt('s3://facet-unit/some/prefix');
  });
  afterAll(async () => {
    await s3?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('puts, gets, stats and deletes an object; a missing one is null, not an error', async () => {
    await store.put('a/b c+ü.txt', 'hello world', 'text/plain');
    expect((await store.get('a/b c+ü.txt'))?.toString()).toBe('hello world');
    const st = await store.stat('a/b c+ü.txt');
    expect(st?.size).toBe(11);
    expect(st?.modified.getTime()).toBeGreaterThan(Date.now() - 600_000);
    expect(await store.get('a/nothing')).toBeNull();
    expect(await store.stat('a/nothing')).toBeNull();
    expect(await store.stream('a/nothing')).toBeNull();
    await store.delete('a/b c+ü.txt');
    expect(await store.get('a/b c+ü.txt')).toBeNull();
    await store.delete('a/b c+ü.txt'); // deleting a missing object is fine
  });

  it('streams a file up (in parts when big) and down, whole and by range', async () => {
    const big = path.join(scratch, 'big.bin');
    const data = Buffer.alloc(17 * 1024 * 1024 + 17);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 0xff;
    writeFileSync(big, data);
    await store.putFile('big/big.bin', big);
    const chunks: Buffer[] = [];
    for await (const c of (await store.stream('big/big.bin'))!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
    const part: Buffer[] = [];
    for await (const c of (await store.stream('big/big.bin', { start: 10, end: 19 }))!) part.push(c as Buffer);
    expect(Buffer.concat(part).equals(data.subarray(10, 20))).toBe(true);
  });

  it('lists a folder recursively under the prefix only, with keys relative to the store', async () => {
    await store.put('tasks/t1/output/x.png', Buffer.from([1, 2, 3]));
    await store.put('tasks/t1/output/sub/y.json', '{}');
    await store.put('tasks/t10/output/z.txt', 'not t1');
    // The same key outside the prefix is not this store's.
    await storeAt('s3://facet-unit').put('tasks/t1/output/outside.txt', 'x');
    const listed = await store.list('tasks/t1');
    expect(listed.map((f) => [f.key, f.size])).toEqual([
      ['tasks/t1/output/sub/y.json', 2],
      ['tasks/t1/output/x.png', 3],
    ]);
    await store.deletePrefix('tasks/t1');
    expect(await store.list('tasks/t1')).toEqual([]);
    expect(await store.get('tasks/t10/output/z.txt')).not.toBeNull();
  });

  it('lists past one page of results', async () => {
    for (let i = 0; i < 1005; i += 15)
      await Promise.all(
        Array.from({ length: Math.min(15, 1005 - i) }, (_, j) =>
          store.put(`many/f${String(i + j).padStart(4, '0')}`, 'x'),
        ),
      );
    const listed = await store.list('many');
    expect(listed).toHaveLength(1005);
    expect(listed[1004].key).toBe('many/f1004');
  }, 60_000);

  it('publishes a work folder: uploads its files, drops what an earlier attempt left, removes the folder', async () => {
    await store.put('tasks/t2/output/stale.png', 'old');
    const dir = store.workDir('tasks/t2/output');
    mkdirSync(path.join(dir, 'd'), { recursive: true });
    writeFileSync(path.join(dir, 'a.txt'), 'A');
    writeFileSync(path.join(dir, 'd', 'b.txt'), 'B');
    await store.publishDir('tasks/t2/output');
    expect((await store.list('tasks/t2/output')).map((f) => f.key)).toEqual([
      'tasks/t2/output/a.txt',
      'tasks/t2/output/d/b.txt',
    ]);
    expect((await store.get('tasks/t2/output/d/b.txt'))?.toString()).toBe('B');
  });

  it('presigns a GET that works without credentials, names the download, and stops working when it expires', async () => {
    await store.put('dl/report.pdf', 'PDF bytes');
    const url = (await store.presignGet('dl/report.pdf', {
      expiresIn: 60,
      fileName: 'Q1 report.pdf',
      contentType: 'application/pdf',
    }))!;
    expect(url).toContain('X-Amz-Signature=');
    expect(url).toContain('X-Amz-Expires=60');
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('PDF bytes');
    expect(ok.headers.get('content-disposition')).toContain("filename*=UTF-8''Q1%20report.pdf");
    expect(ok.headers.get('content-type')).toBe('application/pdf');

    // X-Amz-Date is truncated to whole seconds, so a URL lives between expiresIn - 1 and expiresIn
    // seconds: with 1 s it could be expired before the first fetch. 3 s is over within 4.5 s.
    const short = (await store.presignGet('dl/report.pdf', { expiresIn: 3 }))!;
    expect(short).toContain('X-Amz-Expires=3');
    expect((await fetch(short)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 4500));
    const expired = await fetch(short);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toMatch(/expired/i);
  });

  it('has one identity per bucket and prefix, the same for every instance that uses it', async () => {
    const id = await store.identity();
    expect(id).toMatch(/^s3:[0-9a-f]{24}$/);
    expect(await storeAt('s3://facet-unit/some/prefix/').identity()).toBe(id);
    expect(await storeAt('s3://facet-unit/other').identity()).not.toBe(id);
    expect(await storeAt('s3://facet-other/some/prefix').identity()).not.toBe(id);
  });

  it('maps refusals to clear errors: a missing bucket, wrong credentials, an unreachable endpoint', async () => {
    const missing = await storeAt('s3://no-such-bucket')
      .put('k', 'v')
      .catch((e: Error) => e);
    expect(missing).toBeInstanceOf(ObjectStoreError);
    expect((missing as ObjectStoreError).status).toBe(502);
    expect((missing as Error).message).toMatch(
      /failed PUT k on s3:\/\/no-such-bucket at http:\/\/127\.0\.0\.1:\d+: HTTP 404 NoSuchBucket/,
    );
    // (s3rver checks the access key id but not a SigV4 signature: the signature is proved against AWS's own example below.)
    const wrongKey = await storeAt('s3://facet-unit', { ...s3.env, AWS_ACCESS_KEY_ID: 'NOBODY' })
      .get('k')
      .catch((e: Error) => e);
    expect((wrongKey as Error).message).toMatch(/HTTP 403 InvalidAccessKeyId/);
    // A port that was free a moment ago (a fixed one, such as 1, may be some other program's).
    const closed = await freePort();
    const away = await storeAt('s3://facet-unit', { ...s3.env, AWS_ENDPOINT_URL: `http://127.0.0.1:${closed}` })
      .get('k')
      .catch((e: Error) => e);
    expect((away as Error).message).toMatch(/failed GET k on .*ECONNREFUSED/);
    // Unreachable is an outage (503, Retry-After, the job queue defers the task); a refusal is not.
    expect((away as ObjectStoreError).status).toBe(503);
    expect((away as ObjectStoreError).outage).toBe(true);
    expect((away as ObjectStoreError).headers['retry-after']).toBe('5');
    expect((missing as ObjectStoreError).outage).toBe(false);
  });

  it('waits for a store that comes back within its retry window, backing off, and counts the retries', async () => {
    const port = await freePort();
    const seen = { request: 0, retry: 0, error: 0 };
    const patient = new S3FileStore(
      parseS3Config(
        { objectStore: 's3://facet-unit/patient', retryWindowMs: 20_000 },
        { ...s3.env, AWS_ENDPOINT_URL: `http://127.0.0.1:${port}` },
      ),
      scratch,
      { request: () => seen.request++, retry: () => seen.retry++, error: () => seen.error++ },
    );
    const started = Date.now();
    const put = patient.put('back.txt', 'later');
    // The store appears on that port 3 s later: a proxy to s3rver.
    await new Promise((r) => setTimeout(r, 3000));
    const target = new URL(s3.endpoint);
    const proxy = net.createServer((c) => {
      const u = net.connect(Number(target.port), target.hostname);
      c.pipe(u).pipe(c);
      c.on('error', () => u.destroy());
      u.on('error', () => c.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    try {
      await put;
      expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
      expect((await storeAt('s3://facet-unit/patient').get('back.txt'))?.toString()).toBe('later');
      expect(seen.error).toBe(0);
      expect(seen.retry).toBeGreaterThanOrEqual(2);
      // Backoff: far fewer attempts than one every few milliseconds would make.
      expect(seen.retry).toBeLessThan(15);
      expect(seen.request).toBe(seen.retry + 1);
    } finally {
      proxy.close();
    }
  }, 30_000);
});

describe('parseS3Config', () => {
  const env = { AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 'secret' };
  it('reads bucket and prefix, AWS defaults, and path style for a configured endpoint', () => {
    expect(parseS3Config({ objectStore: 's3://my-bucket/a/b/' }, env)).toMatchObject({
      bucket: 'my-bucket',
      prefix: 'a/b',
      endpoint: 'https://s3.us-east-1.amazonaws.com',
      pathStyle: false,
    });
    expect(parseS3Config({ objectStore: 's3://my-bucket', region: 'eu-west-1' }, env)).toMatchObject({
      prefix: '',
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      region: 'eu-west-1',
    });
    expect(parseS3Config({ objectStore: 's3://my-bucket', endpoint: 'http://127.0.0.1:9000/' }, env)).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      pathStyle: true,
    });
    expect(
      parseS3Config({ objectStore: 's3://my-bucket' }, { ...env, AWS_ENDPOINT_URL: 'http://minio:9000' }),
    ).toMatchObject({ endpoint: 'http://minio:9000', pathStyle: true });
  });
  it('refuses what cannot work, saying why', () => {
    expect(() => parseS3Config({ objectStore: 'my-bucket' }, env)).toThrow(/must look like s3:\/\/BUCKET/);
    expect(() => parseS3Config({ objectStore: 's3://My_Bucket' }, env)).toThrow(/not a valid bucket name/);
    expect(() => parseS3Config({ objectStore: 's3://my-bucket' }, { AWS_ACCESS_KEY_ID: 'id' })).toThrow(
      /both the access key id and the secret/,
    );
    // Neither: the SDK's standard credential chain (profile, web identity, instance metadata) finds them.
    expect(parseS3Config({ objectStore: 's3://my-bucket' }, {})).toMatchObject({
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
    expect(() => parseS3Config({ objectStore: 's3://my-bucket', endpoint: 'ftp://x' }, env)).toThrow(/http or https/);
  });
});
