import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { insertUser } from '../../../src/server/store/users.repo.js';
import { insertUsage, sumUsageByKeyAndModel } from '../../../src/server/store/usage.repo.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

/** What the report must say, summed in JavaScript from the records themselves. */
function expectedSums(records: Array<Record<string, any>>, match: (r: Record<string, any>) => boolean) {
  const groups = new Map<string, Record<string, any>>();
  for (const r of records.filter(match)) {
    const id = `${r.api_key_id}|${r.user_id}|${r.model}`;
    const g = groups.get(id) ?? {
      api_key_id: r.api_key_id,
      user_id: r.user_id,
      model: r.model,
      calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      web_searches: 0,
      cost_nano_usd: 0,
      first_call_at: r.created_at,
      last_call_at: r.created_at,
    };
    g.calls += 1;
    for (const c of [
      'input_tokens',
      'output_tokens',
      'cache_read_tokens',
      'cache_write_tokens',
      'web_searches',
      'cost_nano_usd',
    ])
      g[c] += r[c];
    if (r.created_at < g.first_call_at) g.first_call_at = r.created_at;
    if (r.created_at > g.last_call_at) g.last_call_at = r.created_at;
    groups.set(id, g);
  }
  return [...groups.values()].sort((a, b) =>
    `${a.api_key_id}|${a.user_id}|${a.model}`.localeCompare(`${b.api_key_id}|${b.user_id}|${b.model}`),
  );
}

const sorted = (rows: Array<Record<string, any>>) =>
  [...rows].sort((a, b) =>
    `${a.api_key_id}|${a.user_id}|${a.model}`.localeCompare(`${b.api_key_id}|${b.user_id}|${b.model}`),
  );

describeOnStores('usage rollups', (stores) => {
  it('equal the sums of the records after concurrent, interleaved records over keys, models, days and tasks', async () => {
    const s = await stores.open();
    opened.push(s);
    for (const id of ['u1', 'u2'])
      await insertUser(s.db, {
        id,
        name: id,
        role: 'user',
        plan: 'free',
        credits: 0,
        created_at: '2026-01-01T00:00:00.000Z',
      });
    let seed = 11;
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const records = Array.from({ length: 300 }, (_, i) => ({
      api_key_id: [null, 'k1', 'k2', 'k3'][next(4)],
      user_id: ['u1', 'u2'][next(2)],
      task_id: next(5) === 0 ? `t${next(3)}` : null,
      model: ['m-a', 'm-b', 'm-c'][next(3)],
      operation: 'chat',
      input_tokens: next(5000),
      output_tokens: next(2000),
      cache_read_tokens: next(100),
      cache_write_tokens: next(50),
      web_searches: next(3),
      // Past 2^31 in total: the sums must stay exact integers.
      cost_nano_usd: 900_000_000 + next(1_000_000_000),
      // Out of order within and across days, as concurrent instances and a server clock may write them.
      created_at: `2026-03-0${1 + next(4)}T${String(next(24)).padStart(2, '0')}:${String(next(60)).padStart(2, '0')}:00.${String(i % 1000).padStart(3, '0')}Z`,
    }));
    for (let i = 0; i < records.length; i += 30)
      await Promise.all(records.slice(i, i + 30).map((r) => insertUsage(s.db, r)));

    expect(sorted(await sumUsageByKeyAndModel(s.db, {}))).toEqual(expectedSums(records, () => true));
    expect(sorted(await sumUsageByKeyAndModel(s.db, { userId: 'u2' }))).toEqual(
      expectedSums(records, (r) => r.user_id === 'u2'),
    );
    expect(sorted(await sumUsageByKeyAndModel(s.db, { apiKeyId: 'k2' }))).toEqual(
      expectedSums(records, (r) => r.api_key_id === 'k2'),
    );
    expect(sorted(await sumUsageByKeyAndModel(s.db, { taskId: 't1' }))).toEqual(
      expectedSums(records, (r) => r.task_id === 't1'),
    );
    // The daily rows hold the same calls, day by day.
    const march2 = await s.db.selectFrom('usage_rollups').selectAll().where('day', '=', '2026-03-02').execute();
    const byDay = expectedSums(records, (r) => r.created_at.startsWith('2026-03-02'));
    expect(
      sorted(
        march2
          .map((r) => ({ ...r, api_key_id: r.api_key_id || null }))
          .map(({ day: _day, ...r }) =>
            Object.fromEntries(
              Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v]),
            ),
          ),
      ),
    ).toEqual(byDay);
  });
});
