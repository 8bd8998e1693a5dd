import { describe, expect, it } from 'vitest';
import { writeAnswer } from '../../src/server/engines/answer-writer.js';
import type { GenerateRequest, ModelGateway } from '../../src/server/engines/gateway-types.js';
import { loadCatalog } from '../../src/server/engines/gateway/catalog.js';
import { ModelDirectory } from '../../src/server/engines/gateway/directory.js';
import { createGateway } from '../../src/server/engines/gateway/gateway.js';
import { openStore } from '../../src/server/store/store.js';

const passages = [{ ref: 1, title: 'Tides', link: 'https://x.test/tides', content: 'Spring tides reach 2.4 metres.' }];
const scope = { apiKeyId: 'key_1', userId: 'usr_1', operation: 'chat' };

async function collect(gen: AsyncGenerator<string, string>) {
  const pieces: string[] = [];
  for (;;) {
    const r = await gen.next();
    if (r.done) return { pieces, text: r.value };
    pieces.push(r.value);
  }
}

describe('answer writer', () => {
  it('with no upstream the local grounded model writes it, and the gateway meters the generation', async () => {
    const store = await openStore({ dataDir: null });
    const gateway = createGateway({
      ctx: { db: store.db, now: () => new Date() },
      directory: new ModelDirectory(loadCatalog(), store.db),
      upstreams: {},
    });
    try {
      const { pieces, text } = await collect(
        writeAnswer(gateway, { query: 'spring tides', history: [], passages, scope }),
      );
      expect(text).toBe('According to your sources: Spring tides reach 2.4 metres. [1]');
      expect(pieces.join('')).toBe(text);
      const metered = await store.db.selectFrom('usage_records').selectAll().execute();
      expect(metered).toEqual([
        expect.objectContaining({
          model: 'facet-grounded',
          operation: 'chat',
          input_tokens: expect.any(Number),
          output_tokens: expect.any(Number),
        }),
      ]);
      expect(metered[0].input_tokens).toBeGreaterThan(0);
      expect(metered[0].output_tokens).toBeGreaterThan(0);
    } finally {
      await gateway.close();
      await store.close();
    }
  });

  it('with a gateway streams the model from the same numbered context and history; the gateway meters', async () => {
    const seen: GenerateRequest[] = [];
    const gateway: ModelGateway = {
      generate: () => Promise.reject(new Error('not used')),
      async *stream(req) {
        seen.push(req);
        yield { type: 'delta', text: 'High: ' };
        yield { type: 'delta', text: '2.4 m [1]' };
        yield {
          type: 'done',
          result: {
            model: 'm',
            text: 'High: 2.4 m [1]',
            stopReason: 'end',
            usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, webSearches: 0 },
            costUsd: 0,
          },
        };
      },
    };
    const history = [{ query: 'Where is Halifax?', answer: 'In Canada [1]' }];
    const { pieces, text } = await collect(
      writeAnswer(gateway, { query: 'How high are tides?', history, passages, scope }),
    );
    expect(pieces).toEqual(['High: ', '2.4 m [1]']);
    expect(text).toBe('High: 2.4 m [1]');
    expect(seen[0].scope).toEqual(scope);
    expect(seen[0].context).toEqual([
      { id: '1', title: 'Tides', content: 'Spring tides reach 2.4 metres.', link: 'https://x.test/tides' },
    ]);
    expect(seen[0].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(seen[0].messages[2].content).toMatch(
      /\[1\] Tides \(https:\/\/x\.test\/tides\)\nSpring tides reach 2\.4 metres\.[\s\S]*Question: How high are tides\?/,
    );
  });
});

describe('engine failures on the chat surface', () => {
  it('a model that is unavailable is SERVICE_UNAVAILABLE 503; anything else CHAT_FAILED 502', async () => {
    const { engineFailure } = await import('../../src/server/services/chat.service.js');
    const { HttpError } = await import('../../src/server/errors.js');
    expect(engineFailure(new HttpError('LLM_SERVICE_UNAVAILABLE', 'upstream down'), 'CHAT_FAILED')).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
    });
    expect(engineFailure(new HttpError('X', 'busy', { status: 503 }), 'CHAT_FAILED')).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
    });
    expect(engineFailure(new Error('socket hang up'), 'CHAT_FAILED')).toMatchObject({
      code: 'CHAT_FAILED',
      status: 502,
      message: expect.stringMatching(/socket hang up/),
    });
  });
});
