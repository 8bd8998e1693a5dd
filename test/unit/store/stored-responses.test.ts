import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import {
  deleteStoredResponse,
  inputItems,
  prepareResponseTurn,
  storedResponse,
} from '../../../src/server/services/model-api/response-store.js';
import { ownerTotals } from '../../../src/server/store/stored-responses.repo.js';
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

/** Issue 38: a stored turn keeps only what it added; the history is the chain of responses before it. */
describeOnStores('stored response chains', (stores) => {
  async function setup() {
    const s = await stores.open();
    opened.push(s);
    const clock = { at: T0 };
    return { s, clock, ctx: { db: s.db, now: () => new Date(clock.at), config: {} as never } };
  }
  type Ctx = Awaited<ReturnType<typeof setup>>['ctx'];
  let n = 0;
  /** One echo turn: the answer repeats the input, as facet-echo's would. */
  async function turn(ctx: Ctx, text: string, previous?: string) {
    const t = await prepareResponseTurn(ctx, 'key:a', {
      model: 'facet-echo',
      input: text,
      ...(previous ? { previous_response_id: previous } : {}),
    });
    const id = `resp_${++n}`;
    await t.persist({
      id,
      object: 'response',
      output: [
        {
          type: 'message',
          id: `msg_out_${n}`,
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text, annotations: [] }],
        },
      ],
      output_text: text,
    } as never);
    return { id, seen: t.body.input as Array<{ content: Array<{ text: string }> }> };
  }
  const texts = (items: Array<{ content: Array<{ text: string }> }>) => items.map((i) => i.content[0].text);

  it('each row holds only its turn; a turn sees the whole chain; input_items lists it; output_text reads back', async () => {
    const { s, ctx } = await setup();
    const a = await turn(ctx, 'one');
    const b = await turn(ctx, 'two', a.id);
    const c = await turn(ctx, 'three', b.id);
    expect(texts(c.seen)).toEqual(['one', 'one', 'two', 'two', 'three']);
    const rows = await s.db
      .selectFrom('model_api_stored')
      .select(['id', 'previous_id', 'body'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.id, r.previous_id])).toEqual([
      [a.id, null],
      [b.id, a.id],
      [c.id, b.id],
    ]);
    // The third row holds 'three' twice (its input and its answer) and nothing of the turns before.
    expect(rows[2].body).not.toMatch(/"one"|"two"/);
    expect(texts((await inputItems(ctx, 'key:a', c.id, { order: 'asc' })).data as never)).toEqual([
      'one',
      'one',
      'two',
      'two',
      'three',
    ]);
    expect((await storedResponse(ctx, 'key:a', c.id)).output_text).toBe('three');
  });

  it("a deleted response stays as its continuations' history (counted, unreadable, not continued); the sweep drops it with its last continuation", async () => {
    const { s, clock, ctx } = await setup();
    const a = await turn(ctx, 'one');
    const b = await turn(ctx, 'two', a.id);
    const before = await ownerTotals(s.db, 'key:a', new Date(clock.at).toISOString());
    await deleteStoredResponse(ctx, 'key:a', a.id);
    await expect(storedResponse(ctx, 'key:a', a.id)).rejects.toMatchObject({ status: 404 });
    await expect(turn(ctx, 'x', a.id)).rejects.toMatchObject({ status: 400, code: 'previous_response_not_found' });
    await expect(deleteStoredResponse(ctx, 'key:a', a.id)).rejects.toMatchObject({ status: 404 });
    // One live row now, but the deleted one's bytes are still held for b's history.
    expect(await ownerTotals(s.db, 'key:a', new Date(clock.at).toISOString())).toEqual({
      rows: 1,
      bytes: before.bytes,
    });
    expect(texts((await turn(ctx, 'three', b.id)).seen)).toEqual(['one', 'one', 'two', 'two', 'three']);
    expect(await sweepStoredResponses(ctx)).toBe(0);
    // Past everyone's retention the whole chain goes in one sweep.
    clock.at = T0 + 31 * DAY;
    expect(await sweepStoredResponses(ctx)).toBe(3);
    expect(await s.db.selectFrom('model_api_stored').selectAll().execute()).toHaveLength(0);
  });

  it('an expired ancestor of a live response is kept by the sweep', async () => {
    const { s, clock, ctx } = await setup();
    const a = await turn(ctx, 'one');
    clock.at = T0 + 20 * DAY;
    const b = await turn(ctx, 'two', a.id);
    clock.at = T0 + 31 * DAY;
    expect(await sweepStoredResponses(ctx)).toBe(0);
    expect(texts((await turn(ctx, 'three', b.id)).seen)).toEqual(['one', 'one', 'two', 'two', 'three']);
    expect(await s.db.selectFrom('model_api_stored').selectAll().execute()).toHaveLength(3);
  });

  it(`a conversation holds at most ${STORED_LIMITS.turnsPerConversation} stored turns: the last is stored, one more is a 400`, async () => {
    const { s, ctx } = await setup();
    const first = await turn(ctx, 'one');
    const template = await s.db
      .selectFrom('model_api_stored')
      .selectAll()
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    let previous = first.id;
    const rows = [];
    for (let i = 2; i <= STORED_LIMITS.turnsPerConversation; i++) {
      rows.push({ ...template, id: `resp_deep_${i}`, previous_id: previous });
      previous = `resp_deep_${i}`;
    }
    for (let i = 0; i < rows.length; i += 500)
      await s.db
        .insertInto('model_api_stored')
        .values(rows.slice(i, i + 500))
        .execute();
    await expect(turn(ctx, 'past', previous)).rejects.toMatchObject({
      status: 400,
      code: 'stored_conversation_too_large',
      message: expect.stringMatching(/at most 5000 turns/),
    });
    // The turn that makes the bound exactly is stored, and sees all 4,999 turns before it.
    const at = await turn(ctx, 'at the bound', `resp_deep_${STORED_LIMITS.turnsPerConversation - 1}`);
    expect(at.seen).toHaveLength(2 * (STORED_LIMITS.turnsPerConversation - 1) + 1);
    expect(texts(at.seen).slice(0, 2)).toEqual(['one', 'one']);
  }, 60_000);
});
