import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { startServer } from '../../../src/server/server.js';

const hasSs = existsSync('/usr/bin/ss') || existsSync('/bin/ss');

// Node's default accept queue is 511: a burst of thousands of stream connections beyond it waited
// for the clients' SYN retries (1, 3, 7 s). `ss` shows a listening socket's queue size as Send-Q.
it.skipIf(!hasSs)('facet serve listens with an accept queue as deep as the kernel allows', async () => {
  const server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
  try {
    const port = new URL(server.url).port;
    const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
    const queue = Number(line.split(/\s+/)[2]);
    const somaxconn = Number(execFileSync('cat', ['/proc/sys/net/core/somaxconn'], { encoding: 'utf8' }));
    expect(queue).toBe(Math.min(somaxconn, 65_535));
    expect(queue).toBeGreaterThan(511);
  } finally {
    await server.close();
  }
});
