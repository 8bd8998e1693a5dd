import { mulberry32 } from '../seeded-random.js';
import { escapeMarkup } from '../../text/escape-markup.js';
import { inlineHtml, inlinePlain } from './inline-html.js';
import { iconSvg } from './icons.js';
import type { PagePlan, PageTable } from './plan.js';
import { PALETTES, stylesheet, type Palette } from './styles.js';

/**
 * Draws a page plan as ONE self-contained HTML document: inline CSS, inline SVG (icons and the
 * hero's art), no script, and no `http://` or `https://` anywhere in it — a source's address is
 * shown as text without its scheme, never linked or loaded — so the page renders the same with the
 * network off and passes a strict Content-Security-Policy. Pure: the same plan gives the same bytes.
 */
export interface RenderOptions {
  /** The LiveDoc the page was written from (named in the footer). */
  livedocId: string;
  /** When it was generated (footer), as an ISO date-time. */
  generatedAt: string;
}

const LABELS: Record<string, Record<string, string>> = {
  en: {
    skip: 'Skip to content',
    from: 'From your LiveDoc',
    sources: 'Sources',
    source: 'source',
    sourcesN: 'sources',
    highlights: 'Highlights',
    read: 'Read the highlights',
    overview: 'Overview',
    numbers: 'Key numbers',
    faq: 'Questions and answers',
    seeSources: 'See the sources',
    made: 'Made with facet from LiveDoc',
    generated: 'generated',
    sourceN: 'Source',
  },
  'zh-Hans': {
    skip: '跳到正文',
    from: '来自你的 LiveDoc',
    sources: '资料来源',
    source: '条来源',
    sourcesN: '条来源',
    highlights: '要点',
    read: '阅读要点',
    overview: '概述',
    numbers: '关键数字',
    faq: '常见问题',
    seeSources: '查看来源',
    made: '由 facet 生成，来源 LiveDoc',
    generated: '生成于',
    sourceN: '来源',
  },
};

/** Text for HTML, with URL schemes taken out of any address the sources quote (see above). */
export function escapeText(text: string): string {
  return escapeMarkup(text.replace(/\b(?:https?|ftp):\/\//gi, '').replace(/\/\/(?=[a-z0-9-]+\.[a-z])/gi, ''));
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export const paletteFor = (title: string): Palette => PALETTES[hash(title) % PALETTES.length];

/** Cited text: `[n]` markers of known sources become links to the source list. */
function cited(text: string, refs: Set<number>, label: string): string {
  return inlineHtml(text, escapeText).replace(/\s*\[(\d+)\]/g, (m, n: string) =>
    refs.has(Number(n)) ? `<sup><a class="cite" href="#src-${n}" aria-label="${label} ${n}">${n}</a></sup>` : '',
  );
}

/** A section's table as its source wrote it, scrolling sideways on a narrow screen, citing its source. */
function tableHtml(t: PageTable, c: (text: string) => string, label: string): string {
  const head = t.header.map((h) => `<th scope="col">${c(h)}</th>`).join('');
  const rows = t.rows.map((r) => `<tr>${r.map((cell) => `<td>${c(cell)}</td>`).join('')}</tr>`).join('');
  return `<div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table><p class="table-source">${escapeText(label)}${c(` [${t.ref}]`)}</p></div>`;
}

/** The hero's decoration: soft circles and a dot grid, placed by a seed from the title. */
function heroArt(seed: number): string {
  const rnd = mulberry32(seed);
  const circles = Array.from({ length: 5 }, (_, i) => {
    const cx = 120 + rnd() * 320;
    const cy = 120 + rnd() * 240;
    // Inside the picture's box, so no circle is cut flat by its edge.
    const r = Math.min(60 + rnd() * 110, cy - 6, 474 - cy, 554 - cx);
    const o = (0.1 + rnd() * 0.16).toFixed(2);
    return `<circle cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" r="${r.toFixed(0)}" fill="#fff" fill-opacity="${o}"${i % 2 ? ' stroke="#fff" stroke-opacity=".35" stroke-width="2"' : ''}/>`;
  }).join('');
  const dots: string[] = [];
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++)
      dots.push(`<circle cx="${330 + x * 18}" cy="${300 + y * 18}" r="2.2" fill="#fff" fill-opacity=".45"/>`);
  return `<svg class="hero-art" viewBox="0 0 560 480" width="560" height="480" aria-hidden="true" focusable="false">${circles}${dots.join('')}<path d="M40 420 C 160 300, 300 470, 520 330" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="3"/></svg>`;
}

/** A <title> within html-validate's long-title limit (70 characters). */
const docTitle = (t: string) => (t.length <= 70 ? t : `${t.slice(0, 68).replace(/\s+\S*$/, '')}…`);

export function renderPage(plan: PagePlan, options: RenderOptions): string {
  const L = LABELS[plan.lang] ?? LABELS.en;
  const refs = new Set(plan.sources.map((s) => s.ref));
  const c = (t: string) => cited(t, refs, L.sourceN);
  const palette = paletteFor(plan.title);
  const n = plan.sources.length;
  const out: string[] = [];
  out.push('<!DOCTYPE html>');
  out.push(`<html lang="${escapeText(plan.lang)}">`);
  out.push('<head>');
  out.push('<meta charset="utf-8">');
  out.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  out.push(`<meta name="description" content="${escapeText(inlinePlain(plan.tagline || plan.title))}">`);
  out.push('<meta name="generator" content="facet landing-page engine">');
  out.push(`<title>${escapeText(docTitle(plan.title))}</title>`);
  out.push(`<style>${stylesheet(palette)}</style>`);
  out.push('</head>');
  out.push('<body>');
  out.push(`<a class="skip" href="#main">${L.skip}</a>`);
  out.push('<header class="hero">');
  out.push(heroArt(hash(plan.title)));
  out.push('<div class="wrap">');
  out.push(`<p class="eyebrow">${L.from} · ${n} ${n === 1 ? L.source : L.sourcesN}</p>`);
  // Inline Markdown (a code span, bold) as HTML here too: no Markdown mark reaches the hero.
  out.push(`<h1>${inlineHtml(plan.title, escapeText)}</h1>`);
  if (plan.tagline) out.push(`<p class="tagline">${inlineHtml(plan.tagline, escapeText)}</p>`);
  const actions = [];
  if (plan.sections.length > 0) actions.push(`<li><a class="button" href="#highlights">${L.read}</a></li>`);
  if (n > 0) actions.push(`<li><a class="button ghost" href="#sources">${L.seeSources}</a></li>`);
  if (actions.length > 0) out.push(`<ul class="actions">${actions.join('')}</ul>`);
  out.push('</div>');
  out.push('</header>');
  out.push('<main id="main">');
  if (plan.keyNumbers.length > 0) {
    out.push('<section class="numbers" aria-labelledby="numbers-title">');
    out.push(`<div class="wrap"><h2 id="numbers-title" class="visually-hidden">${L.numbers}</h2><ul>`);
    for (const k of plan.keyNumbers) {
      const cite = refs.has(k.ref) ? ` [${k.ref}]` : '';
      out.push(
        `<li><span class="value">${escapeText(k.value)}</span><span class="label">${c(k.label + cite)}</span></li>`,
      );
    }
    out.push('</ul></div>');
    out.push('</section>');
  }
  if (plan.summary) {
    out.push('<section aria-labelledby="overview-title">');
    out.push(
      `<div class="wrap narrow"><h2 id="overview-title">${L.overview}</h2><p class="lead">${c(plan.summary)}</p></div>`,
    );
    out.push('</section>');
  }
  if (plan.sections.length > 0) {
    out.push(`<section id="highlights" class="alt" aria-labelledby="highlights-title">`);
    out.push(`<div class="wrap"><h2 id="highlights-title">${L.highlights}</h2><div class="grid">`);
    for (const s of plan.sections) {
      out.push(
        `<article class="${s.table ? 'card wide' : 'card'}"><span class="badge">${iconSvg(s.icon)}</span><h3>${inlineHtml(s.heading, escapeText)}</h3>${s.paragraphs.map((p) => `<p>${c(p)}</p>`).join('')}${s.items ? `<ul class="points">${s.items.map((i) => `<li>${c(i)}</li>`).join('')}</ul>` : ''}${s.table ? tableHtml(s.table, c, L.sourceN) : ''}</article>`,
      );
    }
    out.push('</div></div>');
    out.push('</section>');
  }
  if (plan.faq.length > 0) {
    out.push('<section aria-labelledby="faq-title">');
    out.push(`<div class="wrap narrow"><h2 id="faq-title">${L.faq}</h2>`);
    // The first answer is open, so the section shows content before anyone clicks.
    for (const [i, f] of plan.faq.entries())
      out.push(
        `<details${i === 0 ? ' open' : ''}><summary>${escapeText(f.question)}</summary><p>${c(f.answer)}</p></details>`,
      );
    out.push('</div>');
    out.push('</section>');
  }
  if (n > 0) {
    out.push(`<section id="sources" class="sources alt" aria-labelledby="sources-title">`);
    out.push(`<div class="wrap narrow"><h2 id="sources-title">${L.sources}</h2><ol>`);
    for (const s of plan.sources) {
      const link = s.link ? `<span class="src-link">${escapeText(s.link)}</span>` : '';
      out.push(
        `<li id="src-${s.ref}" value="${s.ref}"><span class="src-title">${escapeText(s.title)}</span>${link}</li>`,
      );
    }
    out.push('</ol></div>');
    out.push('</section>');
  }
  out.push('</main>');
  out.push(
    `<footer><div class="wrap"><p>${L.made} <code>${escapeText(options.livedocId)}</code> · ${L.generated} <time datetime="${escapeText(options.generatedAt)}">${escapeText(options.generatedAt.slice(0, 10))}</time></p></div></footer>`,
  );
  out.push('</body>');
  out.push('</html>');
  return out.join('\n') + '\n';
}
