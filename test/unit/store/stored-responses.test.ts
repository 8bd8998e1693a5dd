import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { prepareResponseTurn, storedResponse } from '../../../src/server/services/model-api/response-store.js';
import {
  conversationExcess,
  ownerExcess,
  STORED_LIMITS,
  store,
  sweepStoredResponses,
} from '../../../src/server/services/model-api/stored.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const DAY = 86_400_000;

describeOnStores('stored responses', (stores) => {
  async function setup(config: { storedResponseDays?: number; storedResponsesPerKey?: number } = {}) {
    const s = await stores.open();
    opened.push(s);
    const clock = { at: T0 };
    return { s, clock, ctx: { db: s.db, now: () => new Date(clock.at), config: config as never } };
  }
  const resp = (id: string) => ({ id, object: 'response', output: [], output_text: 'x' }) as never;

  it('keeps a response for its retention (30 days by default), then reads it as gone; the sweep deletes it', async () => {
    const { s, clock, ctx } = await setup();
    await store(ctx, 'key:a', 'resp_1', 'response', { input: [], response: resp('resp_1') }, 1);
    clock.at = T0 + 30 * DAY - 1;
    expect((await storedResponse(ctx, 'key:a', 'resp_1')).id).toBe('resp_1');
    expect(await sweepStoredResponses(ctx)).toBe(0);
    clock.at = T0 + 30 * DAY;
    await expect(storedResponse(ctx, 'key:a', 'resp_1')).rejects.toMatchObject({ status: 404 });
    expect(await sweepStoredResponses(ctx)).toBe(1);
    expect(await s.db.selectFrom('model_api_stored').selectAll().execute()).toHaveLength(0);
  });

  it('honours --stored-response-days, and another owner never reads a row', async () => {
    const { clock, ctx } = await setup({ storedResponseDays: 2 });
    await store(ctx, 'key:a', 'resp_2', 'response', { input: [], response: resp('resp_2') }, 1);
    await expect(storedResponse(ctx, 'key:b', 'resp_2')).rejects.toMatchObject({ status: 404 });
    clock.at = T0 + 2 * DAY;
    await expect(storedResponse(ctx, 'key:a', 'resp_2')).rejects.toMatchObject({ status: 404 });
  });

  it('a conversation of exactly the byte bound is accepted; one byte more is a 400', async () => {
    const { ctx } = await setup();
    expect(conversationExcess(1, STORED_LIMITS.bytesPerConversation)).toBeNull();
    expect(conversationExcess(1, STORED_LIMITS.bytesPerConversation + 1)).toMatch(/at most/);
    expect(conversationExcess(STORED_LIMITS.itemsPerConversation, 10)).toBeNull();
    expect(conversationExcess(STORED_LIMITS.itemsPerConversation + 1, 10)).toMatch(/items/);
    // One user message whose JSON is the bound exactly: the string's length is what is left.
    const frame = JSON.stringify([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '' }], id: `msg_${'x'.repeat(32)}` },
    ]).length;
    const at = 'a'.repeat(STORED_LIMITS.bytesPerConversation - frame);
    await expect(
      prepareResponseTurn(ctx, 'key:a', { model: 'facet-echo', input: at, store: false }),
    ).resolves.toBeDefined();
    await expect(
      prepareResponseTurn(ctx, 'key:a', { model: 'facet-echo', input: `${at}a`, store: false }),
    ).rejects.toMatchObject({ status: 400, code: 'stored_conversation_too_large' });
  });

  it('per key: rows up to the bound, bytes up to 256 MiB in all', async () => {
    const { ctx } = await setup({ storedResponsesPerKey: 2 });
    await store(ctx, 'key:a', 'resp_a', 'response', { input: [], response: resp('resp_a') }, 1);
    expect(await ownerExcess(ctx, 'key:a', 10)).toBeNull();
    await store(ctx, 'key:a', 'resp_b', 'response', { input: [], response: resp('resp_b') }, 1);
    expect(await ownerExcess(ctx, 'key:a', 10)).toMatch(/most it may \(2\)/);
    // Replacing a row (a thread's next turn) does not add one.
    expect(await ownerExcess(ctx, 'key:a', 10, { bytes: 10 })).toBeNull();
    expect(await ownerExcess(ctx, 'key:b', STORED_LIMITS.bytesPerKey)).toBeNull();
    expect(await ownerExcess(ctx, 'key:b', STORED_LIMITS.bytesPerKey + 1)).toMatch(/bytes/);
  });
});
