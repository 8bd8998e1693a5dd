import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { pollWhile } from '../helpers/health-probe.js';
import { schemas } from '../helpers/schema-arbitrary.js';

/**
 * Issue 38, property: whatever JSON Schema a caller sends facet-agent — cycles through `#` and
 * `$defs`, alias loops, allOf/anyOf/oneOf nesting, bounds of a billion — on all three surfaces,
 * plain and streamed, and to both token counters, every request ends within 2 s with a 200 or a
 * 4xx (never a 5xx), the server's resident memory stays within 500 MB of idle, and /healthz
 * keeps answering throughout.
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

type Schema = Record<string, unknown>;
type Family = 'openai' | 'anthropic';
const user = [{ role: 'user', content: 'record "Ada" in Paris with p: 3 and q=yes' }];

function requests(schema: Schema): Array<[string, string, Record<string, unknown>, Family]> {
  return [
    [
      'chat format',
      '/api/v1/chat/completions',
      {
        model: 'facet-agent',
        messages: user,
        response_format: { type: 'json_schema', json_schema: { name: 'a', schema } },
      },
      'openai',
    ],
    [
      'chat tools, streamed',
      '/api/v1/chat/completions',
      {
        model: 'facet-agent',
        messages: user,
        stream: true,
        tools: [{ type: 'function', function: { name: 'record', parameters: schema } }],
        tool_choice: 'required',
      },
      'openai',
    ],
    [
      'responses format',
      '/api/v1/responses',
      { model: 'facet-agent', input: 'record "Ada"', text: { format: { type: 'json_schema', name: 'a', schema } } },
      'openai',
    ],
    [
      'responses format, streamed',
      '/api/v1/responses',
      {
        model: 'facet-agent',
        input: 'record "Ada"',
        stream: true,
        text: { format: { type: 'json_schema', name: 'a', schema } },
      },
      'openai',
    ],
    [
      'messages format',
      '/api/v1/messages',
      {
        model: 'facet-agent',
        max_tokens: 500,
        messages: user,
        output_config: { format: { type: 'json_schema', schema } },
      },
      'anthropic',
    ],
    [
      'messages tools any, streamed',
      '/api/v1/messages',
      {
        model: 'facet-agent',
        max_tokens: 500,
        stream: true,
        messages: user,
        tools: [{ name: 'record', input_schema: schema }],
        tool_choice: { type: 'any' },
      },
      'anthropic',
    ],
    [
      'responses input_tokens',
      '/api/v1/responses/input_tokens',
      { model: 'facet-agent', input: 'record', text: { format: { type: 'json_schema', name: 'a', schema } } },
      'openai',
    ],
    [
      'messages count_tokens',
      '/api/v1/messages/count_tokens',
      { model: 'facet-agent', messages: user, tools: [{ name: 'record', input_schema: schema }] },
      'anthropic',
    ],
  ];
}

/** The server's resident memory, in MB. */
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))![1]) / 1024;

describe('generated JSON Schemas on every surface', () => {
  it('every request ends within 2 s with a 200 or a 4xx; memory and /healthz hold', async () => {
    const headers = (family: Family): Record<string, string> => ({
      'content-type': 'application/json',
      ...(family === 'openai'
        ? { authorization: `Bearer ${p.boot.api_key}` }
        : { 'x-api-key': p.boot.api_key, 'anthropic-version': '2023-06-01' }),
    });
    // Warm up (the tokenizer and the workers load on first use), then idle memory.
    for (const [, path, body, family] of requests({ type: 'object' }))
      await (await p.fetch(path, { method: 'POST', headers: headers(family), body: JSON.stringify(body) })).text();
    const idle = rssMb();
    let peak = idle;
    const statuses: Record<number, number> = {};
    const run = fc.assert(
      fc.asyncProperty(schemas, async (schema) => {
        for (const [name, path, body, family] of requests(schema)) {
          const t0 = performance.now();
          const r = await p.fetch(path, {
            method: 'POST',
            headers: headers(family),
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(10_000),
          });
          const text = await r.text();
          const ms = performance.now() - t0;
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          const what = `${name}: ${r.status} in ${Math.round(ms)} ms for ${JSON.stringify(schema)}\n${text.slice(0, 300)}`;
          expect(r.status < 500 && (r.status === 200 || r.status >= 400), what).toBe(true);
          expect(ms, what).toBeLessThan(2_000);
        }
        peak = Math.max(peak, rssMb());
      }),
      { numRuns: Number(process.env.SCHEMA_RUNS ?? 30) },
    );
    const { polls } = await pollWhile(p, run, 100);
    console.log(
      `statuses ${JSON.stringify(statuses)}; RSS idle ${Math.round(idle)} MB, peak ${Math.round(peak)} MB; /healthz ${polls.length} polls, slowest ${Math.round(Math.max(...polls))} ms`,
    );
    expect(peak - idle).toBeLessThan(500);
    expect(Math.max(...polls)).toBeLessThan(1_000);
  }, 120_000);
});
