import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/chat/index.js';
import { IO } from '../../src/cli/io/output.js';
import { ApiError } from '../../src/client/errors.js';
import type { Deps } from '../../src/cli/deps.js';

function fakeDeps(ask: () => Promise<unknown>) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  const io = new IO({ stdout: out, stderr: err, json: false, quiet: false, color: false });
  const deps = {
    io: () => io,
    api: async () => ({ chat: { ask } }),
    now: () => new Date(0),
    globals: () => ({}),
  } as unknown as Deps;
  return { deps, out: () => stdout, err: () => stderr };
}

const limited = () =>
  Object.assign(new ApiError(429, 'RATE_LIMITED', 'Chat rate limit exceeded', 'req_1', {}, 0), {
    rateLimit: { limit: 3, remaining: 0, reset: 60, retryAfter: 0 },
  });
const answer = {
  data: {
    id: 'c',
    message_id: 'm',
    answer: 'Yes [1]',
    query_analysis: { queries: ['q'] },
    resources: [{ link: 'https://a.test', title: 'A', snippet: '' }],
  },
  rateLimit: { limit: 3, remaining: 2, reset: 60, retryAfter: null },
};

describe('facet chat on 429', () => {
  it('fails with exit 5 and a hint when --retry is not given', async () => {
    let calls = 0;
    const f = fakeDeps(async () => {
      calls++;
      throw limited();
    });
    await expect(run('q', { maxRetries: 3 }, f.deps)).rejects.toMatchObject({
      exitCode: 5,
      hint: expect.stringMatching(/--retry/),
    });
    expect(calls).toBe(1);
  });

  it('waits for Retry-After and retries with --retry, then prints the answer and sources', async () => {
    let calls = 0;
    const f = fakeDeps(async () => {
      if (++calls < 3) throw limited();
      return answer;
    });
    await run('q', { retry: true, maxRetries: 3, verbose: true }, f.deps);
    expect(calls).toBe(3);
    expect(f.out()).toBe('Yes [1]\n\nSources\n[1] A — https://a.test\n');
    expect(f.err()).toMatch(/waiting 0 s before retry 1 of 3/);
    expect(f.err()).toMatch(/rate limit: 2 of 3 left/);
  });
});
