import type { Citation, DeckModel, Outline, SlideModel } from './model.js';
import type { SourcePassage } from './outline.js';
import { chartFor, tableKey, type NumberTable } from './tables.js';
import { sectionOf } from './outline-writer.js';

const TEXT = {
  en: { takeaways: 'Key takeaways', inNumbers: (t: string) => `${t} in numbers` },
  'zh-Hans': { takeaways: '要点总结', inNumbers: (t: string) => `${t}：数据一览` },
};

/** A table found in one resource's text, with that resource. */
export interface SourceTable {
  resourceId: string;
  resourceTitle: string;
  table: NumberTable;
}

function cite(p: SourcePassage): Citation {
  const passage = p.content.replace(/\s+/g, ' ').trim();
  return {
    ref: p.ref,
    resourceId: p.resourceId,
    title: p.resourceTitle,
    passage: passage.length > 500 ? passage.slice(0, 497) + '…' : passage,
  };
}

/**
 * The slide model of a deck: a title slide, the outline's slides (each citing its passages), a
 * native chart for each table of numbers in the sources (after the first slide that cites that
 * source, else after the title), and the takeaways.
 */
export function buildDeck(input: {
  outline: Outline;
  passages: SourcePassage[];
  tables: SourceTable[];
  lang: 'en' | 'zh-Hans';
}): DeckModel {
  const t = TEXT[input.lang];
  const byRef = new Map(input.passages.map((p) => [p.ref, p]));
  const slides: SlideModel[] = [
    { kind: 'title', title: input.outline.title, subtitle: input.outline.subtitle, citations: [] },
  ];
  // The same table twice (a page added twice) is one chart.
  const tables = input.tables.filter(
    (s, i) => input.tables.findIndex((o) => tableKey(o.table) === tableKey(s.table)) === i,
  );
  const charts: Array<{ slide: SlideModel; resourceId: string }> = tables.map((s) => ({
    resourceId: s.resourceId,
    slide: {
      kind: 'chart',
      title: s.table.heading || t.inNumbers(s.resourceTitle),
      chart: chartFor(s.table, s.resourceTitle, input.lang),
      citations: [
        {
          ref: 0,
          resourceId: s.resourceId,
          title: s.resourceTitle,
          passage: [
            s.table.series.map((x) => x.name).join(', '),
            ...s.table.categories.map((c, i) => `${c}: ${s.table.series.map((x) => x.values[i]).join(', ')}`),
          ].join('; '),
        },
      ],
    },
  }));
  const placed = new Set<number>();
  const placeChartsFor = (resourceIds: Set<string>) => {
    charts.forEach((c, i) => {
      if (!placed.has(i) && resourceIds.has(c.resourceId)) {
        placed.add(i);
        slides.push(c.slide);
      }
    });
  };
  // A chart under the same heading as a points slide is that section "in numbers": no two slides share a title.
  const titles = new Set(input.outline.slides.map((s) => s.title.toLowerCase()));
  for (const c of charts) if (titles.has(c.slide.title.toLowerCase())) c.slide.title = t.inNumbers(c.slide.title);
  for (const s of input.outline.slides) {
    const cited = s.sources.map((r) => byRef.get(r)).filter((p): p is SourcePassage => Boolean(p));
    slides.push({ kind: 'points', title: s.title, points: s.points, citations: cited.map(cite) });
    placeChartsFor(new Set(cited.map((p) => p.resourceId)));
  }
  // Charts whose source no slide cites go right after the title slide.
  const rest = charts.filter((_, i) => !placed.has(i)).map((c) => c.slide);
  slides.splice(1, 0, ...rest);
  // A deck of four or more slides always ends on its takeaways: the outline's, else each content
  // slide's first point led by its title (a recap, in the order the deck told it).
  // A section split over slides ("Schedule (1/2)", "(2/2)") is recapped once, by its own title.
  const sections = new Map<string, string>();
  for (const x of slides)
    if (x.kind === 'points' && x.points.length > 0 && !sections.has(sectionOf(x.title)))
      sections.set(sectionOf(x.title), x.points[0]);
  const recap = [...sections]
    .slice(0, 4)
    .map(([title, point]) => `**${escapeMarks(title)}**${input.lang === 'zh-Hans' ? '：' : ': '}${point}`);
  const takeaways = input.outline.takeaways.length > 0 ? input.outline.takeaways : slides.length >= 3 ? recap : [];
  if (takeaways.length > 0) {
    const all = input.outline.slides
      .flatMap((s) => s.sources)
      .map((r) => byRef.get(r))
      .filter((p): p is SourcePassage => Boolean(p));
    const firstOfEach = [...new Map(all.map((p) => [p.resourceId, p])).values()].slice(0, 6);
    slides.push({
      kind: 'closing',
      title: t.takeaways,
      points: takeaways,
      citations: firstOfEach.map(cite),
    });
  }
  return { title: input.outline.title, lang: input.lang, slides };
}

/** A title as inline Markdown text: its own marks are characters, not markup. */
const escapeMarks = (s: string) => s.replace(/([\\`*_[\]<>])/g, '\\$1');

/** Speaker notes: the supporting passages, each with its citation (resource title and id). */
export function notesFor(slide: SlideModel, lang: 'en' | 'zh-Hans'): string {
  if (slide.citations.length === 0)
    return lang === 'zh-Hans'
      ? '本演示文稿由 LiveDoc 中的资料生成。'
      : 'This deck was generated from the resources of a LiveDoc.';
  const head = lang === 'zh-Hans' ? '依据的资料：' : 'Supporting passages:';
  return [
    head,
    ...slide.citations.map((c) => `${c.ref > 0 ? `[${c.ref}] ` : ''}${c.title} (${c.resourceId}): "${c.passage}"`),
  ].join('\n\n');
}
