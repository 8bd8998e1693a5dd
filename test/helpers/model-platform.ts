import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { okJson, startPlatform, type Platform } from './platform.js';

/** What `facet admin usage --key ID --json` reports for one key. */
export interface KeyUsage {
  keys: Array<{ calls: number; cost_usd: number; models: Array<Record<string, number | string>> }>;
  totals: Record<string, number>;
}

/**
 * For a test file of the model APIs: a platform whose OpenAI- and Anthropic-compatible upstreams are
 * the fake model server on 127.0.0.1, started before the file's tests and stopped after them, with
 * the official clients pointed at it. `env` holds the two once the file's tests run.
 */
export function useModelPlatform() {
  const env = {} as { p: Platform; up: FakeUpstream };
  beforeAll(async () => {
    env.up = await startFakeUpstream();
    env.p = await startPlatform({
      args: ['--upstream-openai-base-url', env.up.openaiBase, '--upstream-anthropic-base-url', env.up.anthropicBase],
    });
  });
  afterAll(async () => {
    env.p?.cleanup();
    await env.up?.close();
  });
  return {
    env,
    /** A fresh key per scenario, so its usage can be read back alone. */
    newKey: async () => okJson<{ id: string; key: string }>(await env.p.cli(['keys', 'create', '--json'])),
    openai: (key: string) =>
      new OpenAI({ apiKey: key, baseURL: `${env.p.url}/api/v1`, maxRetries: 0, timeout: 20_000 }),
    anthropic: (key: string) =>
      new Anthropic({ apiKey: key, baseURL: `${env.p.url}/api`, maxRetries: 0, timeout: 20_000 }),
    usageOf: async (keyId: string) => okJson<KeyUsage>(await env.p.cli(['admin', 'usage', '--key', keyId, '--json'])),
  };
}
