import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// Which CPU lane each job asks for: the pool runs the light lane one job at a time, so a count queued
// there behind an illustration's render waits for the whole render.
const asked: Array<{ name: string; urgent: boolean }> = [];
vi.mock('../../../src/server/engines/workers/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/server/engines/workers/index.js')>();
  return {
    ...real,
    runCpuJob: ((name, input, options = {}) => {
      asked.push({ name, urgent: options.urgent === true });
      return real.runCpuJob(name, input, options);
    }) as typeof real.runCpuJob,
  };
});

const { generateIllustrations } = await import('../../../src/server/engines/illustration/index.js');
const { countTokens } = await import('../../../src/server/engines/gateway/tokenizer.js');

describe('CPU lanes of an illustration', () => {
  it("counts a metered SVG on the general lane, beside its render on the light lane; a request's count stays light", async () => {
    asked.length = 0;
    await generateIllustrations({
      prompt: 'lanes',
      width: 320,
      height: 200,
      count: 1,
      keywords: ['sea', 'harbour', 'boats'],
      outDir: mkdtempSync(path.join(os.tmpdir(), 'facet-lanes-')),
      countTokens: true,
    });
    expect(asked).toEqual([
      { name: 'render-png', urgent: true },
      { name: 'count-tokens', urgent: false },
    ]);

    asked.length = 0;
    await countTokens('word '.repeat(1000));
    expect(asked).toEqual([{ name: 'count-tokens', urgent: true }]);
  });
});
