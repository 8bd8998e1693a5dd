import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's fixed development credentials (it checks signatures made with them). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestObjectStore {
  /** http://127.0.0.1:PORT */
  endpoint: string;
  bucket: string;
  /** The environment a `facet serve` child needs for it (endpoint, region, credentials). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * An S3-compatible server (s3rver) on a free loopback port, storing in a temporary directory, with
 * the given buckets made; stop() closes it and removes the directory.
 */
export async function startObjectStore(buckets: string[] = ['facet-test']): Promise<TestObjectStore> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket: buckets[0],
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
