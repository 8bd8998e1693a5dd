import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { citedSentences, keepKnownCitations, planPage } from '../../../src/server/engines/landing-page/planner.js';
import { PLAN_LIMITS, triedJson } from '../../../src/server/engines/landing-page/plan.js';
import type { ModelGateway } from '../../../src/server/engines/gateway-types.js';
import { solarPassages } from '../../helpers/landing-docs.js';

/**
 * A model reply is read up to PLAN_LIMITS.replyChars, and the text passes that read it are linear:
 * a megabyte of nested list (long indentation) or of citations took seconds before.
 */
const scope = { apiKeyId: null, userId: 'usr_1', taskId: 'task_1', operation: 'landing_page' };
const replying = (text: string) =>
  ({ generate: async () => ({ text, model: 'fake-model' }) }) as unknown as ModelGateway;

// The expressions these functions replace, as the reference they must agree with.
const oldSentences = (t: string) =>
  t
    .split(/(?<=[.!?…](?:\s*\[\d+\])*)\s+(?=[^\s[])/)
    .map((s) => s.trim())
    .filter(Boolean);
const oldCitations = (t: string, refs: Set<number>) =>
  t.replace(/\s*\[(\d+)\]/g, (m, n: string) => (refs.has(Number(n)) ? m : ''));
const prose = fc
  .array(
    fc.constantFrom(
      'A',
      'b',
      'word',
      '.',
      '!',
      '?',
      '…',
      ' ',
      '  ',
      '\n',
      '\t',
      '[1]',
      '[2]',
      '[12]',
      '[',
      ']',
      '[x]',
      '5',
      ' [3]',
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('landing-page text passes', () => {
  it('citedSentences ends a sentence at 。！？ too (the local writer answers Chinese and Japanese in them)', () => {
    expect(citedSentences('甲是乙。 [1] 丙是丁！ [2] e.')).toEqual(['甲是乙。 [1]', '丙是丁！ [2]', 'e.']);
  });

  it('citedSentences splits exactly as the look-behind did', () => {
    fc.assert(
      fc.property(prose, (t) => {
        expect(citedSentences(t)).toEqual(oldSentences(t));
      }),
      { numRuns: 2000 },
    );
    expect(citedSentences('A. [1] B! [2][3] c d? e')).toEqual(['A. [1]', 'B! [2][3]', 'c d?', 'e']);
  });

  it('keepKnownCitations drops exactly what the old expression did', () => {
    const refs = new Set([1, 2]);
    fc.assert(
      fc.property(prose, (t) => {
        expect(keepKnownCitations(t, refs)).toEqual(oldCitations(t, refs));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('a model reply past the bound', () => {
  it('a megabyte of nested list is read only up to replyChars: nothing past it reaches the page', async () => {
    const head = Array.from(
      { length: 400 },
      (_, i) => `${' '.repeat(i % 200)}- Solar panels save money ${i}. [1]`,
    ).join('\n');
    const reply = `${head}\n${' '.repeat(PLAN_LIMITS.replyChars)}- UNREAD TAIL. [1]\n${'    - deeper. [2]\n'.repeat(60_000)}`;
    expect(reply.length).toBeGreaterThan(1_000_000);
    const plan = await planPage({ query: 'solar power', passages: solarPassages(), gateway: replying(reply), scope });
    expect(plan.plannedBy).toBe('composer');
    expect(JSON.stringify(plan)).not.toContain('UNREAD TAIL');
    expect(plan.tagline.length + plan.summary.length).toBeGreaterThan(0);
  });

  it('a deeply nested JSON plan is not a plan: asked for once more, then a clear error, never a crash', async () => {
    const reply = `{"title":"t","sections":[{"heading":"h","body":${'['.repeat(200_000)}${']'.repeat(200_000)}}]}`;
    await expect(
      planPage({ query: 'solar power', passages: solarPassages(), gateway: replying(reply), scope }),
    ).rejects.toThrow(/page plan could not be used, asked twice/);
  });
});

describe('a lead-in whose code the page leaves out', () => {
  it("ends as a sentence, with its citation once (the code block's own [n] goes with the block)", async () => {
    const reply =
      'According to your sources: You can create child loggers from existing loggers to pass metadata overrides: [1]\n\n```js\nconst child = logger.child({ requestId: 451 });\n```\n\n[1]';
    const plan = await planPage({ query: 'solar power', passages: solarPassages(), gateway: replying(reply), scope });
    const texts = plan.sections.flatMap((s) => s.paragraphs);
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts)
      expect(t).toBe('You can create child loggers from existing loggers to pass metadata overrides. [1]');
  });
});

describe('a prose answer that opens with a quoted code block', () => {
  // A local (extractive) answer may begin with the code it quotes: that is prose, not a failed plan.
  it('is composed as prose, while a fenced JSON object is read as the plan', async () => {
    const prose =
      "```\nlogger.profile('test', { level: 'debug' });\n```\n\nAll profile messages are set to 'info' level by default. [1]";
    const plan = await planPage({ query: 'solar power', passages: solarPassages(), gateway: replying(prose), scope });
    expect(plan.plannedBy).toBe('composer');
    expect(triedJson(prose)).toBe(false);
    expect(triedJson('```json\n{"title": "x"}\n```')).toBe(true);
    expect(triedJson('  {"title": "x"}')).toBe(true);
  });
});
