import { describe, expect, it } from 'vitest';
import { HtmlValidate } from 'html-validate';
import { generateLandingPage } from '../../../src/server/engines/landing-page/index.js';
import type { GenerateRequest, ModelGateway } from '../../../src/server/engines/gateway-types.js';
import { SOLAR_QUERY, solarPassages, withLocalGateway } from '../../helpers/landing-docs.js';

const scope = { apiKeyId: null, userId: 'usr_1', taskId: 'task_1', operation: 'landing_page' };
const now = new Date('2026-11-22T12:00:00Z');

/** html-validate's recommended rules: the page must pass every one of them. */
async function validate(html: string) {
  const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(html);
  return report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} ${m.line}:${m.column} ${m.message}`));
}

describe('landing-page engine with the local grounded model', () => {
  it('writes a page from the passages: sections per heading, figures from the table and the text, the FAQ heading, sources; metered', async () => {
    await withLocalGateway(async (gateway, usage) => {
      const page = await generateLandingPage({
        query: SOLAR_QUERY,
        passages: solarPassages(),
        livedocId: 'ld_1',
        gateway,
        scope,
        now,
      });
      const { plan, html } = page;
      expect(plan.plannedBy).toBe('composer');
      expect(plan.title).toBe('Home solar power: costs, savings and how panels work');
      expect(plan.lang).toBe('en');
      // The tagline is a sentence of the sources about the page's subject (the writer is asked about
      // the subject, not "make a landing page", which no source covers).
      const sourceText = solarPassages()
        .map((p) => p.content)
        .join(' ');
      expect(plan.tagline).not.toMatch(/do not cover/i);
      expect(sourceText).toContain(plan.tagline);
      // Sections come from the documents' own headings, each body the model's answer from that text.
      const headings = plan.sections.map((s) => s.heading);
      expect(headings).toEqual(expect.arrayContaining(['How panels work', 'Costs and savings', 'Home batteries']));
      const costs = plan.sections.find((s) => s.heading === 'Costs and savings')!;
      expect(costs.paragraphs.join(' ')).toContain('$15,000');
      expect(costs.paragraphs.join(' ')).toMatch(/\[1\]/);
      // Figures: each with the sentence that states it (sentences first, then tables' latest rows).
      expect(plan.keyNumbers.map((k) => k.value)).toEqual(expect.arrayContaining(['$15,000', '30%']));
      expect(plan.keyNumbers.find((k) => k.value === '$15,000')).toMatchObject({
        label: 'A typical 6 kW home solar system costs $15,000 before incentives.',
        ref: 1,
      });
      for (const k of plan.keyNumbers) expect(k.label).toContain(k.value);
      expect(plan.faq[0].question).toBe('Is my roof suitable for solar panels?');
      expect(plan.faq[0].answer).toMatch(/South-facing roofs.*\[1\]$/);
      expect(plan.sources.map((s) => s.ref)).toEqual([1, 2, 3]);
      // Every model call went through the gateway and was metered to the task.
      const rows = (await usage()) as Array<{ operation: string; task_id: string; model: string }>;
      // One call for the lead and one per section tried: a section whose answer cites nothing is left
      // out (the adoption table's), its call still metered.
      expect(rows.length).toBeGreaterThanOrEqual(1 + plan.sections.length);
      expect(rows.length).toBeLessThanOrEqual(1 + solarPassages().length);
      expect(
        rows.every((r) => r.operation === 'landing_page' && r.task_id === 'task_1' && r.model === 'facet-grounded'),
      ).toBe(true);
      // Rendered: the content is on the page.
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('$15,000');
      expect(html).toContain('<a class="cite" href="#src-1" aria-label="Source 1">1</a>');
    });
  });

  it('the page passes html-validate (recommended rules), has no http(s):// anywhere and loads nothing', async () => {
    await withLocalGateway(async (gateway) => {
      const { html } = await generateLandingPage({
        query: SOLAR_QUERY,
        passages: solarPassages(),
        livedocId: 'ld_1',
        gateway,
        scope,
        now,
      });
      expect(await validate(html)).toEqual([]);
      expect(html).not.toMatch(/https?:\/\//i);
      expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
      // The source's address is shown as text without its scheme.
      expect(html).toContain('energy.example.org/solar-guide');
    });
  });

  it('is deterministic: the same passages and query give the same bytes', async () => {
    await withLocalGateway(async (gateway) => {
      const a = await generateLandingPage({
        query: SOLAR_QUERY,
        passages: solarPassages(),
        livedocId: 'ld_1',
        gateway,
        scope,
        now,
      });
      const b = await generateLandingPage({
        query: SOLAR_QUERY,
        passages: solarPassages(),
        livedocId: 'ld_1',
        gateway,
        scope,
        now,
      });
      expect(a.html).toBe(b.html);
    });
  });

  it('a different query over the same LiveDoc gives a different page (nothing canned)', async () => {
    await withLocalGateway(async (gateway) => {
      const a = await generateLandingPage({
        query: SOLAR_QUERY,
        passages: solarPassages(),
        livedocId: 'ld_1',
        gateway,
        scope,
        now,
      });
      const b = await generateLandingPage({
        query: 'home batteries during an outage',
        passages: solarPassages(),
        livedocId: 'ld_1',
        gateway,
        scope,
        now,
      });
      expect(b.plan.title).toBe('Home batteries during an outage');
      expect(b.plan.tagline).not.toBe(a.plan.tagline);
      expect(b.plan.tagline).toMatch(/battery/i);
    });
  });
});

describe('landing-page sections', () => {
  it('a sentence that differs only in its figures is said once on the page, and a figure once per label', async () => {
    await withLocalGateway(async (gateway) => {
      const passages = [1, 2, 3].map((ref) => ({
        ref,
        resourceId: `res_${ref}`,
        title: `Report ${ref}`,
        section: ref === 3 ? 'How it works' : 'Costs',
        content:
          ref === 3
            ? 'A heat pump moves heat from outside air into the home.'
            : `A typical heat pump project costs $${ref + 9},500 before incentives.`,
        link: '',
      }));
      const { plan } = await generateLandingPage({
        query: 'heat pump costs',
        passages,
        livedocId: 'ld_1',
        gateway,
        scope,
        now,
      });
      const all = [plan.summary, ...plan.sections.flatMap((s) => s.paragraphs)].join(' ');
      expect(all.match(/typical heat pump project costs/g)).toHaveLength(1);
      expect(plan.keyNumbers.map((k) => k.value)).toEqual(['$10,500']);
    });
  });

  it('resources that share a heading make one section citing each of them', async () => {
    await withLocalGateway(async (gateway) => {
      const texts = [
        'Heat pumps in the north cost 7,000 dollars to install.',
        'Grants in the south pay 2,000 dollars of the heat pump cost.',
      ];
      const passages = [1, 2].map((ref) => ({
        ref,
        resourceId: `res_${ref}`,
        title: `Report ${ref}`,
        section: 'Costs',
        content: texts[ref - 1],
        link: '',
      }));
      const { plan } = await generateLandingPage({
        query: 'heat pump costs',
        passages,
        livedocId: 'ld_1',
        gateway,
        scope,
        now,
      });
      expect(plan.sections.map((s) => s.heading)).toEqual(['Costs']);
      expect(plan.sections[0].paragraphs.join(' ')).toMatch(/\[1\][\s\S]*\[2\]/);
    });
  });
});

describe('landing-page engine with a model that plans in JSON', () => {
  const plan = {
    title: 'Solar at home',
    tagline: 'Power from your roof [1]',
    summary: 'Panels pay back in 8 to 10 years [1]. Invented claim [9].',
    sections: [
      { heading: 'Savings', body: ['The tax credit covers 30% [1].'], icon: 'chart' },
      { heading: 'Storage', body: 'Batteries keep the lights on [3].', icon: 'nope' },
    ],
    key_numbers: [
      { value: '30%', label: 'tax credit', source: 1 },
      { value: '99%', label: 'invented', source: 1 },
    ],
    faq: [{ question: 'Does it work when cloudy?', answer: 'Less well [1].' }],
  };
  const fake = (text: string, seen: GenerateRequest[]): ModelGateway => ({
    async generate(req) {
      seen.push(req);
      return {
        model: 'up',
        text,
        stopReason: 'end',
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, webSearches: 0 },
        costUsd: 0,
      };
    },
    stream: () => {
      throw new Error('not used');
    },
  });

  it("uses the model's plan, dropping citations of unknown sources and figures the sources do not contain", async () => {
    const seen: GenerateRequest[] = [];
    const { plan: p, html } = await generateLandingPage({
      query: SOLAR_QUERY,
      passages: solarPassages(),
      livedocId: 'ld_1',
      gateway: fake('Here is the plan:\n```json\n' + JSON.stringify(plan) + '\n```', seen),
      scope,
      now,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].messages[0].content).toContain('Reply with one JSON object');
    expect(seen[0].messages[0].content).toContain('[2] Home solar installations by year');
    expect(p.plannedBy).toBe('model');
    expect(p.title).toBe('Solar at home');
    expect(p.tagline).toBe('Power from your roof');
    expect(p.summary).toBe('Panels pay back in 8 to 10 years [1]. Invented claim.');
    expect(p.sections.map((s) => s.icon)).toEqual(['chart', expect.any(String)]);
    expect(p.sections[1].icon).not.toBe('nope');
    expect(p.keyNumbers).toEqual([{ value: '30%', label: 'tax credit', ref: 1 }]);
    expect(await validate(html)).toEqual([]);
  });

  it("repairs a plan's malformed JSON (single quotes, trailing commas) without asking again", async () => {
    const seen: GenerateRequest[] = [];
    const sloppy = JSON.stringify(plan)
      .replace(/"title":/, "'title':")
      .replace(/\]\}$/, '],}');
    const { plan: p } = await generateLandingPage({
      query: SOLAR_QUERY,
      passages: solarPassages(),
      livedocId: 'ld_1',
      gateway: fake(sloppy, seen),
      scope,
      now,
    });
    expect(seen).toHaveLength(1);
    expect(p.plannedBy).toBe('model');
    expect(p.title).toBe('Solar at home');
  });

  it('a JSON reply that is not a plan is asked for once more, saying why; then the page fails with a clear error', async () => {
    const seen: GenerateRequest[] = [];
    await expect(
      generateLandingPage({
        query: SOLAR_QUERY,
        passages: solarPassages(),
        livedocId: 'ld_1',
        gateway: fake('{"title": 3}', seen),
        scope,
        now,
      }),
    ).rejects.toThrow(/page plan could not be used, asked twice: .*title/);
    expect(seen).toHaveLength(2);
    expect(seen[1].messages[0].content).toMatch(/Your last reply could not be used: .*title/);
  });

  it('a reply in prose (a model that does not plan in JSON) composes the page from the passages', async () => {
    const seen: GenerateRequest[] = [];
    const { plan: p } = await generateLandingPage({
      query: SOLAR_QUERY,
      passages: solarPassages(),
      livedocId: 'ld_1',
      gateway: fake('Panels on a roof pay back in 8 to 10 years [1].', seen),
      scope,
      now,
    });
    expect(p.plannedBy).toBe('composer');
    expect(seen.length).toBeGreaterThan(1);
  });

  it('a lead that cites no source ("your sources do not cover…") is not the tagline', async () => {
    const { plan: p, html } = await generateLandingPage({
      query: SOLAR_QUERY,
      passages: solarPassages(),
      livedocId: 'ld_1',
      gateway: fake('Your sources do not cover this question.', []),
      scope,
      now,
    });
    expect(p.tagline).not.toMatch(/do not cover/);
    expect(html).not.toMatch(/do not cover/);
  });
});
