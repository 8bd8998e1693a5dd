import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/server/engines/gateway/catalog.js';
import { priceCall } from '../../src/server/engines/gateway/pricing.js';

const usage = (
  u: Partial<Record<'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'webSearches', number>>,
) => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  webSearches: 0,
  ...u,
});

describe('the shipped catalog', () => {
  const catalog = loadCatalog();
  const chat = catalog.models.filter((m) => m.model_kind === 'chat' && m.api !== 'local' && m.listed);

  it('lists the spec’s twelve chat models with context windows from 200K to 1.05M', () => {
    expect(chat).toHaveLength(12);
    const windows = chat.map((m) => m.context_window);
    expect(Math.min(...windows)).toBe(200_000);
    expect(Math.max(...windows)).toBe(1_050_000);
  });

  it('has three -pro variants that keep price, context and output limit', () => {
    const pros = chat.filter((m) => m.id.endsWith('-pro'));
    expect(pros).toHaveLength(3);
    for (const pro of pros) {
      const base = catalog.get(pro.id.replace(/-pro$/, ''))!;
      expect(pro.pricing).toEqual(base.pricing);
      expect(pro.context_window).toBe(base.context_window);
      expect(pro.max_output_tokens).toBe(base.max_output_tokens);
    }
  });

  it('prices the decisions model at 0.042 input and zero output, and local models at zero', () => {
    expect(catalog.get('verdict-1')!.pricing).toMatchObject({ input: 0.042, output: 0 });
    expect(catalog.get('facet-echo')!.pricing).toMatchObject({ input: 0, output: 0 });
  });

  it('loads a replacement file and refuses a duplicate id or a bad field', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-catalog-'));
    const file = path.join(dir, 'c.json');
    const echo = catalog.get('facet-echo')!;
    writeFileSync(file, JSON.stringify({ version: 1, models: [{ ...echo, id: 'my-echo' }] }));
    expect(loadCatalog(file).models.map((m) => m.id)).toEqual(['my-echo']);
    writeFileSync(file, JSON.stringify({ version: 1, models: [echo, echo] }));
    expect(() => loadCatalog(file)).toThrow(/appears twice/);
    writeFileSync(file, JSON.stringify({ version: 1, models: [{ ...echo, model_kind: 'poetry' }] }));
    expect(() => loadCatalog(file)).toThrow(/model_kind/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('priceCall', () => {
  const lumen = loadCatalog().get('lumen-flash')!.pricing!;

  it('bills input, output, cache read and cache write per million tokens', () => {
    expect(priceCall(lumen, usage({ inputTokens: 40_000 }))).toBeCloseTo(0.01, 12);
    expect(priceCall(lumen, usage({ outputTokens: 1_000_000 }))).toBeCloseTo(1.25, 12);
    expect(priceCall(lumen, usage({ cacheReadTokens: 40_000 }))).toBeCloseTo(0.001, 12);
    expect(priceCall(lumen, usage({ cacheWriteTokens: 32_000 }))).toBeCloseTo(0.001, 12);
  });

  it('switches the whole request to the higher tier strictly above 100K prompt tokens', () => {
    expect(priceCall(lumen, usage({ inputTokens: 100_000, outputTokens: 1000 }))).toBeCloseTo(
      (100_000 * 0.25 + 1000 * 1.25) / 1e6,
      12,
    );
    // 100,001 prompt tokens, part of them cached: everything at the high tier
    const high = priceCall(
      lumen,
      usage({ inputTokens: 60_001, cacheReadTokens: 30_000, cacheWriteTokens: 10_000, outputTokens: 1000 }),
    );
    expect(high).toBeCloseTo((60_001 * 0.5 + 30_000 * 0.05 + 10_000 * 0.0625 + 1000 * 2.5) / 1e6, 12);
  });

  it('adds 0.01 USD per reported web search, and charges nothing for a free model', () => {
    expect(priceCall({ input: 0, output: 0 }, usage({ inputTokens: 5000, webSearches: 3 }))).toBeCloseTo(0.03, 12);
    expect(priceCall({ input: 0, output: 0 }, usage({ inputTokens: 5000, outputTokens: 10 }))).toBe(0);
  });

  it('bills absent cache rates at zero', () => {
    expect(priceCall({ input: 1, output: 1 }, usage({ cacheReadTokens: 1_000_000 }))).toBe(0);
  });
});
