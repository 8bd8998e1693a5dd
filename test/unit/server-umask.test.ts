import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/server.js';

describe('startServer and the process', () => {
  it("leaves the process's umask as it found it: the CLI entry sets facet serve's", async () => {
    const before = process.umask(0o022);
    let during: number;
    try {
      const server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
      await server.close();
    } finally {
      // process.umask(mask) answers the mask it replaces: what startServer left.
      during = process.umask(before);
    }
    expect(during).toBe(0o022);
  });
});
