// Decks, landing pages and mindmaps made from the bench/content corpus through the real CLI and API,
// scanned for what a reader must never see: code as a bullet, a sentence cut with an ellipsis,
// badges or images as bullets, a repeated slide title, timestamps/ids/ports/code as key figures,
// Markdown marks in page HTML or mindmap labels, and a page wider than a 390 px phone screen. Also
// counts native charts and tables in the decks. Run by bench/content/run.mjs over its LiveDoc
// (scanDecksAndPages), or alone: node bench/content/decks-pages.mjs (needs `npm run build`).
// BENCH_RENDER=1 also renders decks (LibreOffice → PNG) and pages (Chromium) into .bench-tmp/ to look at.
// Against the documents themselves (structure-counts.mjs): charts per numeric table of the documents a
// deck is about, man-page options that keep their flags in mindmaps, PDF code blocks fenced versus
// the PDF's source Markdown (bench/content/sources). BENCH_SCAN_ONLY=decks,pages,maps,pdf runs some parts.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import JSZip from 'jszip';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { codeBlocks, figureBlocks, manOptions, numericTables, optionNodes, squeeze } from './structure-counts.mjs';

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, '../..');
const OUT = path.join(ROOT, '.bench-tmp', 'decks-pages');
const run = promisify(execFile);

/**
 * What the decks, pages and mindmaps are asked for: the corpus's subjects, in English and Chinese,
 * each with the documents its subject names (whose numeric tables a deck should chart).
 */
const DECK_DOCS = [
  ['How do I use winston transports and logging levels?', ['winston-readme.docx']],
  ['Pino long term support, supported Node.js versions and benchmarks', ['pino-lts.html', 'pino-benchmarks.md']],
  ['How do I enable debug output and namespaces?', ['debug-readme.md']],
  ['commander options and commands', ['commander-readme.md']],
  ['pinyin-pro 的功能、性能和体积', ['pinyin-pro-readme.html']],
  ['pino 的长期支持和安全发布', ['pino-lts.html']],
];
const DECKS = DECK_DOCS.map(([q]) => q);
const PAGES = [
  'Make a landing page about pino, the fast JSON logger',
  'Make a landing page about the buffer module and its benchmarks',
  'Make a landing page about winston transports',
  'pinyin-pro 拼音工具',
];
const MAPS = ['winston transports and levels', 'debug namespaces and wildcards', 'gzip options', 'pdftoppm options'];
/** The man page each options map is drawn from. */
const MAP_MAN = { 'gzip options': 'gzip-man.html', 'pdftoppm options': 'pdftoppm-man.html' };
/** Chromium-printed PDFs of the dev split and the Markdown they were printed from. */
const PDF_SOURCES = { 'buffer-readme.pdf': 'buffer-readme.md', 'picomatch-readme.pdf': 'picomatch-readme.md' };
const ONLY = process.env.BENCH_SCAN_ONLY ? new Set(process.env.BENCH_SCAN_ONLY.split(',')) : null;
const part = (name) => !ONLY || ONLY.has(name);
/** A title as compared: lower case, letters and digits only. */
const key = (s) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

// ---- What counts as bad ----
/** A bullet that is program text, not a sentence about it (a sentence may name `.opts()`). */
const CODE =
  /=>|\)\s*;|[{(,]\s*$|^\s*[{[<]|^\s*\$\s|^(const|let|var|import|require|function)\b|\b\w+\(\{|^[\w.]+\([^)]*\)?$/;
const CUT = /…\s*$/;
const BADGE = /!\[|\]\(|<img|shields\.io|badge/i;
const MARKS = /\*\*|__|`|^\s*#{1,6}\s|\]\(/m;
/** A figure that is no quantity: 7+ bare digits (timestamp, id), a port, a version, a date. */
const BAD_FIGURE = /^\d{7,}$|^\d{4}-\d{2}-\d{2}$|^\d+\.\d+\.\d+|^v\d/;
const PORTS = new Set(['3000', '8080', '80', '443', '5432', '6379', '8000']);

const decode = (s) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;|&#39;/g, "'")
    .replace(/&amp;/g, '&');

async function deckFacts(file) {
  const zip = await JSZip.loadAsync(readFileSync(file));
  const slides = Object.keys(zip.files)
    .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
    .sort((a, b) => Number(/\d+/.exec(a)[0]) - Number(/\d+/.exec(b)[0]));
  const out = { titles: [], bullets: [], charts: 0, tables: 0, hardBreaks: 0, badCategories: 0, chartTitles: [] };
  for (const name of slides) {
    const xml = await zip.file(name).async('string');
    // PowerPoint wraps a paragraph itself: a break facet wrote is a paragraph with hard breaks.
    out.hardBreaks += (xml.match(/<a:p>(?:(?!<\/a:p>)[\s\S])*<a:br/g) ?? []).length;
    // The writer breaks lines itself (<a:br/>): a break is a space in the paragraph's text.
    const paras = (xml.match(/<a:p>[\s\S]*?<\/a:p>/g) ?? [])
      .map((p) =>
        decode(
          (p.replace(/<a:br\/>/g, '<a:t> </a:t>').match(/<a:t>([^<]*)<\/a:t>/g) ?? [])
            .map((t) => t.replace(/<\/?a:t>/g, ''))
            .join('')
            .replace(/\s+/g, ' ')
            .trim(),
        ),
      )
      .filter(Boolean);
    out.titles.push(paras[0] ?? '');
    if (xml.includes('<c:chart ')) out.chartTitles.push(paras[0] ?? '');
    // Slide numbers and chart captions are not bullets.
    out.bullets.push(...paras.slice(1).filter((t) => !/^\d+$/.test(t) && !/^(Source|来源)[:：]/.test(t)));
    out.tables += (xml.match(/<a:tbl>/g) ?? []).length;
  }
  const charts = Object.keys(zip.files).filter((n) => /^ppt\/charts\/chart\d+\.xml$/.test(n));
  out.charts = charts.length;
  // A chart's categories are labels: never box-drawing, never empty of letters and digits.
  for (const c of charts) {
    const xml = await zip.file(c).async('string');
    const cats = [...(/<c:cat>[\s\S]*?<\/c:cat>/.exec(xml)?.[0] ?? '').matchAll(/<c:v>([^<]*)<\/c:v>/g)].map((m) =>
      decode(m[1]),
    );
    if (cats.some((x) => !/[\p{L}\p{N}]/u.test(x) || /[\u2500-\u257f]/.test(x))) out.badCategories++;
  }
  return out;
}

/** The texts a reader sees on a page, its key figures apart. */
function pageFacts(html) {
  const body = html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<svg[\s\S]*?<\/svg>/g, '');
  const figures = [
    ...body.matchAll(/<span class="value">([\s\S]*?)<\/span><span class="label">([\s\S]*?)<\/span>/g),
  ].map((m) => ({
    value: decode(m[1].replace(/<[^>]+>/g, '')).trim(),
    label: decode(m[2].replace(/<[^>]+>/g, '')).trim(),
  }));
  const text = decode(body.replace(/<code>[\s\S]*?<\/code>/g, ' ').replace(/<[^>]+>/g, '\n'));
  return { figures, text };
}

async function pageWidth(html) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.route('**/*', (r) => r.abort());
    await page.setContent(html, { waitUntil: 'load' });
    return await page.evaluate('document.documentElement.scrollWidth');
  } finally {
    await browser.close();
  }
}

async function render(pptx) {
  const dir = path.dirname(pptx);
  await run('soffice', ['--headless', '--convert-to', 'pdf', '--outdir', dir, pptx], { timeout: 180_000 });
  const pdf = pptx.replace(/\.pptx$/, '.pdf');
  await run('pdftoppm', ['-png', '-r', '50', pdf, pdf.replace(/\.pdf$/, '')], { timeout: 120_000 });
}

/**
 * Makes the decks, pages and mindmaps over `livedoc` and scans them. Returns report lines and the
 * counts (goal: every "bad" count 0).
 */
export async function scanDecksAndPages({ url, key: apiKey, livedoc, resources = [] }) {
  mkdirSync(OUT, { recursive: true });
  const env = {
    ...process.env,
    FACET_CONFIG_DIR: mkdtempSync(path.join(os.tmpdir(), 'facet-bench-cli-')),
    FACET_BASE_URL: url,
    FACET_API_KEY: apiKey,
    NO_COLOR: '1',
  };
  const cli = async (args) =>
    (
      await run(process.execPath, [path.join(ROOT, 'bin/facet.js'), ...args], {
        env,
        timeout: 600_000,
        maxBuffer: 64 << 20,
      })
    ).stdout;
  const bad = {
    codeBullets: [],
    cutSentences: [],
    badgeBullets: [],
    repeatedTitles: [],
    badFigures: [],
    pageMarks: [],
    pageCode: [],
    wideScreens: [],
    uncitedSections: [],
    pageNotCovered: [],
    mapMarks: [],
    mapCut: [],
  };
  let charts = 0;
  let tables = 0;
  let hardBreaks = 0;
  let badCategories = 0;
  let markBullets = 0;
  let withTakeaways = 0;
  let longDecks = 0;
  let slides = 0;
  let bullets = 0;
  let sections = 0;
  const text = (file) => resources.find((r) => r.file === file)?.content ?? '';
  /** Per deck: the numeric tables of the documents it names, how many have a chart, and charts of other tables. */
  const chartRows = [];
  for (const [i, query] of (part('decks') ? DECKS : []).entries()) {
    const file = path.join(OUT, `deck-${i + 1}.pptx`);
    await cli([
      'slides',
      'create',
      query,
      '--livedoc',
      livedoc,
      '--slides',
      '8',
      '--wait',
      '--interval',
      '2',
      '--out',
      file,
    ]);
    const deck = await deckFacts(file);
    const named = DECK_DOCS[i][1].flatMap((f) => [...numericTables(text(f)), ...figureBlocks(text(f))]);
    const titled = (t) => deck.chartTitles.some((c) => key(c).includes(key(t.heading)));
    chartRows.push({
      query,
      tables: named.length,
      charted: named.filter((t) => t.heading && titled(t)).length,
      charts: deck.charts,
      others: deck.chartTitles.filter((c) => !named.some((t) => t.heading && key(c).includes(key(t.heading)))),
      uncharted: named.filter((t) => !t.heading || !titled(t)).map((t) => t.heading || '(no heading)'),
    });
    slides += deck.titles.length;
    bullets += deck.bullets.length;
    charts += deck.charts;
    tables += deck.tables;
    hardBreaks += deck.hardBreaks;
    badCategories += deck.badCategories;
    markBullets += deck.bullets.filter((b) => MARKS.test(b)).length;
    if (deck.titles.length >= 4) {
      longDecks++;
      if (/^(Key takeaways|要点总结)/.test(deck.titles.at(-1) ?? '')) withTakeaways++;
    }
    for (const b of deck.bullets) {
      if (CODE.test(b)) bad.codeBullets.push(`${query}: ${b}`);
      if (CUT.test(b)) bad.cutSentences.push(`${query}: ${b}`);
      if (BADGE.test(b)) bad.badgeBullets.push(`${query}: ${b}`);
    }
    const seen = new Map();
    for (const t of deck.titles) seen.set(t, (seen.get(t) ?? 0) + 1);
    for (const [t, n] of seen)
      if (n > 1 || /（续）（续）|\(cont(inued|\.)\).*\(cont/.test(t)) bad.repeatedTitles.push(`${query}: ${t} ×${n}`);
    if (process.env.BENCH_RENDER) await render(file);
  }
  for (const [i, query] of (part('pages') ? PAGES : []).entries()) {
    const file = path.join(OUT, `page-${i + 1}.html`);
    await cli(['pages', 'create', query, '--livedoc', livedoc, '--wait', '--interval', '2', '--out', file]);
    const html = readFileSync(file, 'utf8');
    const { figures, text } = pageFacts(html);
    // Sections are the page's substance: each must cite a source, and the writer's "not covered" is never page text.
    const cards = html.match(/<article class="card[^"]*">[\s\S]*?<\/article>/g) ?? [];
    sections += cards.length;
    for (const card of cards)
      if (!card.includes('class="cite"'))
        bad.uncitedSections.push(
          `${query}: ${card
            .replace(/<[^>]+>/g, ' ')
            .trim()
            .slice(0, 80)}`,
        );
    if (/do not cover|closest to:/i.test(text)) bad.pageNotCovered.push(query);
    for (const f of figures)
      if (BAD_FIGURE.test(f.value) || PORTS.has(f.value) || /^\{|"\w+":/.test(f.label))
        bad.badFigures.push(`${query}: ${f.value} — ${f.label}`);
    for (const line of text.split('\n')) {
      if (MARKS.test(line)) bad.pageMarks.push(`${query}: ${line.trim().slice(0, 120)}`);
      // Code itself, not a sentence that names require('buffer'): a declaration, a statement's end, JSON.
      if (/^\s*(?:const|let|var|import)\s|^\s*[{[]|\)\s*;\s*$|=>|"\w+":\s*[\d"{[]|\.listen\(\d/.test(line))
        bad.pageCode.push(`${query}: ${line.trim().slice(0, 120)}`);
    }
    const width = await pageWidth(html);
    if (width > 390) bad.wideScreens.push(`${query}: ${width} px`);
  }
  const optionRows = [];
  for (const query of part('maps') ? MAPS : []) {
    const data = JSON.parse(
      await cli([
        'mindmap',
        query,
        '--livedoc',
        livedoc,
        '--out',
        path.join(OUT, `${query.split(' ')[0]}.png`),
        '--json',
      ]),
    );
    const content = JSON.parse(
      await cli(['api', 'GET', `/v2/livedocs/${livedoc}/resources/${data.resource_id}/content`]),
    );
    const md = content.data.content;
    writeFileSync(path.join(OUT, `${query.split(' ')[0]}.md`), md);
    const labels = [];
    for (const line of md.split('\n')) {
      // The stored outline is Markdown; a label is what its parser leaves (what the drawing shows).
      const label = toString(
        fromMarkdown(line.replace(/^\s*(?:#{1,6}|[-*])\s+/, ''), {
          extensions: [gfm()],
          mdastExtensions: [gfmFromMarkdown()],
        }),
      );
      if (label.trim()) labels.push(label.trim());
      // A trailing backslash is a hard break's mark: the point's next line became a node of its own.
      if (/\*\*|`|\]\(|\\$/.test(label)) bad.mapMarks.push(`${query}: ${label}`);
      if (CUT.test(label)) bad.mapCut.push(`${query}: ${label}`);
    }
    if (MAP_MAN[query]) {
      const options = manOptions(text(MAP_MAN[query]));
      const nodes = optionNodes(labels, options);
      const covered = new Set(nodes.map((n) => n.option));
      optionRows.push({
        query,
        options: options.length,
        covered: covered.size,
        nodes: nodes.length,
        kept: nodes.filter((n) => n.keepsFlag).length,
        lost: nodes.filter((n) => !n.keepsFlag).map((n) => n.label),
      });
    }
  }
  // PDF code blocks: each block of the source kept whole (same characters) as one fenced block.
  const pdfRows = [];
  for (const [pdf, source] of Object.entries(part('pdf') ? PDF_SOURCES : {})) {
    const want = codeBlocks(readFileSync(path.join(HERE, 'sources', source), 'utf8'));
    const got = codeBlocks(text(pdf)).filter((b) => b.fenced);
    const whole = new Set(got.map((b) => squeeze(b.value)));
    pdfRows.push({
      pdf,
      source: want.length,
      fenced: got.length,
      whole: want.filter((b) => whole.has(squeeze(b.value))).length,
    });
  }
  const sum = (rows, k) => rows.reduce((n, r) => n + r[k], 0);
  const lines = [
    '',
    `decks: ${chartRows.length} (${slides} slides, ${bullets} bullets), ${charts} native charts, ${tables} native tables`,
    `  charts with non-label categories ${badCategories}, bullets with Markdown marks or links ${markBullets}, paragraphs with hard breaks ${hardBreaks}, decks of 4+ slides ending on takeaways ${withTakeaways}/${longDecks}`,
    `  code bullets ${bad.codeBullets.length}, cut sentences ${bad.cutSentences.length}, badge/image bullets ${bad.badgeBullets.length}, repeated titles ${bad.repeatedTitles.length}`,
    `  charts per numeric table of the documents a deck names: ${sum(chartRows, 'charted')}/${sum(chartRows, 'tables')} tables charted, ${chartRows.reduce((n, r) => n + r.others.length, 0)} charts of other tables`,
    ...chartRows.map(
      (r) =>
        `    ${r.query}: ${r.charted}/${r.tables} charted, ${r.charts} charts${r.uncharted.length ? `; not charted: ${r.uncharted.join(', ')}` : ''}${r.others.length ? `; other charts: ${r.others.join(', ')}` : ''}`,
    ),
    `pages: ${PAGES.length} (${sections} sections, ${bad.uncitedSections.length} citing no source, ${bad.pageNotCovered.length} saying "not covered"): timestamps/ids/ports/code as figures ${bad.badFigures.length}, Markdown marks ${bad.pageMarks.length}, code as prose ${bad.pageCode.length}, wider than 390 px ${bad.wideScreens.length}`,
    `mindmaps: ${MAPS.length}: Markdown marks ${bad.mapMarks.length}, cut labels ${bad.mapCut.length}`,
    ...optionRows.map(
      (r) =>
        `  ${r.query}: ${r.kept}/${r.nodes} option nodes keep their flag (${r.covered} of the page's ${r.options} options shown)${r.lost.length ? `; without: ${r.lost.slice(0, 3).join(' | ')}` : ''}`,
    ),
    ...pdfRows.map(
      (r) => `PDF ${r.pdf}: ${r.fenced} fenced code blocks for the source's ${r.source}, ${r.whole} of them kept whole`,
    ),
  ];
  for (const [k, v] of Object.entries(bad)) for (const x of v.slice(0, 5)) lines.push(`  ${k}: ${x}`);
  lines.push(`decks and pages written to ${path.relative(process.cwd(), OUT)}`);
  return { lines, bad, charts, tables, chartRows, optionRows, pdfRows };
}

// Alone: a platform of its own, the corpus loaded into one LiveDoc.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { startPlatform } = await import('../lib/platform.mjs');
  const server = await startPlatform((process.env.BENCH_SERVE_ARGS ?? '').split(' ').filter(Boolean));
  try {
    const auth = { Authorization: `Bearer ${server.key}` };
    const made = await fetch(`${server.url}/v2/livedocs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Real documents' }),
    });
    const livedoc = (await made.json()).data.short_id;
    // The dev split's documents (splits.json): held-out ones are never used while tuning.
    const docs = path.join(HERE, 'docs');
    const manifest = JSON.parse(readFileSync(path.join(HERE, 'splits.json'), 'utf8')).docs;
    const dev = readdirSync(docs)
      .filter((f) => manifest[f]?.split === 'dev' && manifest[f].add === 'upload')
      .sort();
    const resources = [];
    for (const file of dev) {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(path.join(docs, file))]), file);
      const res = await fetch(`${server.url}/v2/livedocs/${livedoc}/resources/upload-doc`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      if (!res.ok) throw new Error(`upload ${file}: ${res.status} ${await res.text()}`);
      const { id } = (await res.json()).data;
      const content = await fetch(`${server.url}/v2/livedocs/${livedoc}/resources/${id}/content`, { headers: auth });
      resources.push({ file, id, content: (await content.json()).data.content });
    }
    const scan = await scanDecksAndPages({ url: server.url, key: server.key, livedoc, resources });
    for (const line of scan.lines) console.log(line);
  } finally {
    await server.stop();
  }
}
