import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FILTER_LIMITS,
  FILTER_OPERATORS,
  VOLUME_LIMITS,
  VOLUME_PATH,
  BACKLINKS_PATH,
  backlinks as backlinksRoute,
  volume as volumeRoute,
} from '../../../src/contract/beta-seo.js';
import { jsonOutOfBounds, MAX_BODY_DEPTH, MAX_BODY_VALUES } from '../../../src/contract/beta-bounds.js';
import { compileFilters, compileFilterTree, FilterError } from '../../../src/server/providers/beta/filter-compiler.js';
import {
  BACKLINK_FIELDS,
  generateBacklinks,
  parseTarget,
} from '../../../src/server/providers/beta/local/backlinks-data.js';
import { localSeoProvider } from '../../../src/server/providers/beta/local/seo-local.js';
import { openStore } from '../../../src/server/store/store.js';

const store = await openStore({ dataDir: null });
afterAll(() => store.close());

/**
 * The beta filter language's bounds (docs/decisions.md "Bounded queries and filters"): whatever
 * filters a caller sends, the compiler answers with a FilterError (the task's 40504) or a filter
 * that runs; caller patterns run in a linear-time engine; bodies past their depth or size are
 * refused before anything walks them.
 */

const rows = generateBacklinks(parseTarget('example.com')!);
const FIELDS = [...Object.keys(BACKLINK_FIELDS), 'nope'];
const deep = (n: number): unknown => {
  let v: unknown = ['rank', '>', 1];
  for (let i = 0; i < n; i++) v = [v];
  return v;
};

const scalar = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.stringMatching(/^[%_a-z.*+?()[\]{}|\\^$]{0,24}$/),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 4 }),
);
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 5 }),
  fc.integer({ min: 0, max: 3000 }).map((n) => Array.from({ length: n }, (_, i) => `v${i}`)),
);
const condition = fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...FILTER_OPERATORS, '~'), value);
const filterTree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condition,
    fc.array(fc.oneof(tie('node'), fc.constantFrom('and', 'or', 'xor')), { minLength: 1, maxLength: 7 }),
  ),
})).node;
const filters = fc.oneof(
  filterTree,
  fc.tuple(fc.integer({ min: 1, max: 200 })).map(([n]) => deep(n)),
  fc.anything({ maxDepth: 4 }),
);

describe('any filters', () => {
  it('compile to a filter that runs over the rows, or are refused with a FilterError', () => {
    fc.assert(
      fc.property(filters, (f) => {
        let keep: (row: object) => boolean;
        try {
          keep = compileFilters(f, BACKLINK_FIELDS);
        } catch (err) {
          expect(err).toBeInstanceOf(FilterError);
          expect((err as Error).message.length).toBeLessThan(1000);
          return;
        }
        expect(rows.filter(keep).length).toBeLessThanOrEqual(rows.length);
      }),
      { numRuns: 400 },
    );
  });

  it('refuse past each bound and accept at it', () => {
    const and = (conds: unknown[]) => conds.flatMap((c, i) => (i === 0 ? [c] : ['and', c]));
    expect(compileFilterTree(deep(FILTER_LIMITS.maxDepth), BACKLINK_FIELDS)).not.toBeNull();
    expect(() => compileFilterTree(deep(FILTER_LIMITS.maxDepth + 1), BACKLINK_FIELDS)).toThrow(
      /nested more than 8 groups deep/,
    );
    const list = (n: number) => Array.from({ length: n }, (_, i) => `a${i}`);
    expect(() => compileFilters(['anchor', 'in', list(FILTER_LIMITS.maxInValues)], BACKLINK_FIELDS)).not.toThrow();
    expect(() => compileFilters(['anchor', 'not_in', list(FILTER_LIMITS.maxInValues + 1)], BACKLINK_FIELDS)).toThrow(
      /takes at most 1000 values; got 1001/,
    );
    const patterns = (n: number) =>
      and(
        Array.from({ length: n }, (_, i) => [
          'anchor',
          ['like', 'not_ilike', 'regex', 'not_regex', 'ilike'][i % 5],
          '%a%',
        ]),
      );
    expect(() => compileFilters(patterns(FILTER_LIMITS.maxPatternConditions), BACKLINK_FIELDS)).not.toThrow();
    expect(() => compileFilters(patterns(FILTER_LIMITS.maxPatternConditions + 1), BACKLINK_FIELDS)).toThrow(
      /at most 4 like, ilike and regex conditions/,
    );
    expect(() =>
      compileFilters(['anchor', 'like', 'x'.repeat(FILTER_LIMITS.maxPattern)], BACKLINK_FIELDS),
    ).not.toThrow();
    expect(() =>
      compileFilters(['anchor', 'ilike', 'x'.repeat(FILTER_LIMITS.maxPattern + 1)], BACKLINK_FIELDS),
    ).toThrow(/longer than 200 characters/);
    expect(() => compileFilters(['anchor', 'regex', '(?=a)b'], BACKLINK_FIELDS)).toThrow(
      /does not compile \(RE2 syntax/,
    );
    expect(() => compileFilters(['anchor', 'regex', '(a)\\1'], BACKLINK_FIELDS)).toThrow(FilterError);
  });

  it('run caller patterns in linear time: patterns that backtrack for ages answer at once', () => {
    const long = { anchor: 'a'.repeat(20_000) };
    // Each of these took exponential or high-polynomial time in the backtracking engine.
    expect(compileFilters(['anchor', 'like', '%a%a%a%a%a%a%a%a%a%a%a%a%b'], BACKLINK_FIELDS)(long)).toBe(false);
    expect(compileFilters(['anchor', 'regex', '^(a+)+$'], BACKLINK_FIELDS)({ anchor: `${'a'.repeat(50)}!` })).toBe(
      false,
    );
    expect(compileFilters(['anchor', 'regex', '(a|aa)*c'], BACKLINK_FIELDS)(long)).toBe(false);
    expect(compileFilters(['anchor', 'ilike', '%A%A%A%A%A%A%A%A%'], BACKLINK_FIELDS)(long)).toBe(true);
  });

  it('match like SQL: literal text, % any run, _ one character, across line breaks', () => {
    const like = (pattern: string, anchor: string, op = 'like') =>
      compileFilters(['anchor', op, pattern], BACKLINK_FIELDS)({ anchor });
    expect(like('a.c%', 'a.cd')).toBe(true);
    expect(like('a.c%', 'abcd')).toBe(false);
    expect(like('%(x)%', 'a(x)b')).toBe(true);
    expect(like('a_c', 'a\nc')).toBe(true);
    expect(like('%b', 'a\nb')).toBe(true);
    expect(like('ÉTÉ%', 'été 2024', 'ilike')).toBe(true);
    expect(like('a\u0000b', 'a\u0000b')).toBe(true);
  });
});

describe('task bodies', () => {
  it('past the depth or size bound are refused without recursion, at the bound accepted', () => {
    const nest = (n: number): unknown => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    expect(jsonOutOfBounds(nest(MAX_BODY_DEPTH))).toBeNull();
    expect(jsonOutOfBounds(nest(MAX_BODY_DEPTH + 1))).toMatch(/nested deeper than 16 levels/);
    expect(jsonOutOfBounds(nest(200_000))).toMatch(/nested deeper/);
    expect(jsonOutOfBounds(Array.from({ length: MAX_BODY_VALUES - 1 }, () => 0))).toBeNull();
    expect(jsonOutOfBounds(Array.from({ length: MAX_BODY_VALUES }, () => 0))).toMatch(/more than 20000 JSON values/);
    expect(jsonOutOfBounds([{ filters: ['anchor', 'in', Array.from({ length: 500_000 }, (_, i) => i)] }])).toMatch(
      /JSON values/,
    );
    expect(backlinksRoute.body!.safeParse([{ target: 'x.com', filters: nest(5000) }]).success).toBe(false);
    expect(volumeRoute.body!.safeParse([{ keywords: ['a'], language_code: 'en', location_code: 2840 }]).success).toBe(
      true,
    );
  });

  it('leave room for the deepest valid filter', async () => {
    const body = [
      {
        target: 'example.com',
        limit: 1,
        filters: [deep(FILTER_LIMITS.maxDepth - 1), 'and', ['anchor', 'in', ['x', 'y']]],
      },
    ];
    expect(jsonOutOfBounds(body)).toBeNull();
    const env = await localSeoProvider(new Uint8Array(32), store.db).post('backlinks', BACKLINKS_PATH, body);
    expect(env.tasks[0].status_code).toBe(20000);
  });

  it('of search volume hold at most the request bound of keywords in all', async () => {
    const seo = localSeoProvider(new Uint8Array(32), store.db);
    const task = (n: number) => ({
      keywords: Array.from({ length: n }, (_, i) => `kw ${i}`),
      language_code: 'en',
      location_code: 2840,
    });
    const perTask = VOLUME_LIMITS.maxKeywords;
    const atBound = await seo.post('volume', VOLUME_PATH, [
      task(perTask),
      task(VOLUME_LIMITS.maxKeywordsPerRequest - perTask),
    ]);
    expect(atBound.tasks.map((t) => t.status_code)).toEqual([20000, 20000]);
    const past = await seo.post('volume', VOLUME_PATH, [task(perTask), task(perTask), task(1)]);
    expect(past).toMatchObject({ status_code: 40500, tasks_count: 0, tasks: [] });
    expect(past.status_message).toMatch(/the tasks hold 2001 keywords; at most 2000 in one request/);
  });
});
