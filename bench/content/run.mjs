// bench/content: do answers say what real documents say? The corpus in docs/ (documents nobody on the
// project wrote, see SOURCES.md; made by make-corpus.mjs) is uploaded through the real API
// (`facet serve`, POST /v2/livedocs/{id}/resources/upload-doc) into one LiveDoc, and every question of
// questions.json is asked the way `facet ask` asks (POST /v2/conversations, the answer read back from
// the thread). It reports, per kind of question and in all:
//
//   - answered with the fact: every expected fact (or one of its alternatives) is in the answer;
//   - quotes altered: a code span or code-block line of an answer that is not verbatim in a source;
//   - "not covered": said for the questions the documents cannot answer, and only for those;
//   - a question in Chinese answered in Chinese (its lead-in and connectives, facts quoted).
//
// Decks and landing pages made from the same corpus are scanned by decks-pages.mjs when it exists
// (see scanDecksAndPages below). Needs `npm run build`.
//
//   node bench/content/run.mjs                 # all questions
//   BENCH_ONLY=lts-8-end,debug-all node bench/content/run.mjs
//   BENCH_SHOW=1 node bench/content/run.mjs    # print every answer (read them as a reader would)
//   BENCH_DUMP=1 node bench/content/run.mjs    # also write each document as extracted to .bench-tmp/extracted/
//   BENCH_MODEL=<name> ... --default-model     # extra `facet serve` arguments via BENCH_SERVE_ARGS
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';
import { startPlatform } from '../lib/platform.mjs';

const HERE = import.meta.dirname;
const DOCS = path.join(HERE, 'docs');
const OUT = path.resolve(HERE, '../../.bench-tmp');
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const questions = JSON.parse(readFileSync(path.join(HERE, 'questions.json'), 'utf8')).filter(
  (q) => !only || only.has(q.id),
);

/** How an answer says the sources do not cover a question, in the languages of the questions. */
const NOT_COVERED = [
  /\bdo(?:es)? not cover\b/i,
  /\bdon't cover\b/i,
  /\bfound nothing about\b/i,
  /没有涉及|未涉及|没有涵盖/,
  /扱っていません|含まれていません/,
];
const saysNotCovered = (answer) => NOT_COVERED.some((re) => re.test(answer));

const parse = (md) => fromMarkdown(md, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
const squash = (s) => s.normalize('NFKC').replace(/\s+/g, ' ').trim();

/** The answer as Markdown and as a reader's plain text, for matching facts either way. */
function answerForms(answer) {
  return [squash(answer), squash(toString(parse(answer)))].map((s) => s.toLowerCase());
}

function hasFact(forms, fact) {
  const alternatives = Array.isArray(fact) ? fact : [fact];
  return alternatives.some((alt) => forms.some((f) => f.includes(squash(alt).toLowerCase())));
}

/** Code spans and code-block lines of an answer: what a reader would copy. */
function quotes(answer) {
  const out = [];
  visit(parse(answer), (node) => {
    if (node.type === 'inlineCode') out.push(node.value);
    if (node.type === 'code') for (const line of node.value.split('\n')) if (line.trim()) out.push(line);
  });
  return out;
}

/** A Chinese question gets a Chinese frame: the answer's first words (its lead-in) are Chinese. */
const HAN = /\p{Script=Han}/u;
function inQuestionLanguage(question, answer) {
  if (!HAN.test(question)) return true;
  const first = /[\p{L}]/u.exec(toString(parse(answer.split('\n')[0])));
  return first !== null && HAN.test(first[0]);
}

/** The answer without its list of sources: what the reader reads as the answer. */
function body(answer) {
  const at = answer.search(/\n(?:Sources|来源|出典)[:：]\n/);
  return at === -1 ? answer : answer.slice(0, at);
}

const words = (text) =>
  [...new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text)].filter((s) => s.isWordLike).length;

async function main() {
  const server = await startPlatform((process.env.BENCH_SERVE_ARGS ?? '').split(' ').filter(Boolean));
  const auth = { Authorization: `Bearer ${server.key}` };
  const call = async (method, route, body) => {
    const res = await fetch(`${server.url}${route}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  try {
    const livedoc = (await call('POST', '/v2/livedocs', { name: 'Real documents' })).short_id;
    const resources = [];
    for (const file of readdirSync(DOCS).sort()) {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(path.join(DOCS, file))]), file);
      const res = await fetch(`${server.url}/v2/livedocs/${livedoc}/resources/upload-doc`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      const json = await res.json();
      if (!res.ok) throw new Error(`upload ${file}: ${res.status} ${JSON.stringify(json)}`);
      const content = await call('GET', `/v2/livedocs/${livedoc}/resources/${json.data.id}/content`);
      resources.push({ file, id: json.data.id, content: typeof content === 'string' ? content : content.content });
    }
    if (process.env.BENCH_DUMP) {
      mkdirSync(path.join(OUT, 'extracted'), { recursive: true });
      for (const r of resources) writeFileSync(path.join(OUT, 'extracted', `${r.file}.md`), r.content);
    }
    // A quote is faithful when it is verbatim in a source: its Markdown, or the text a reader sees.
    const sourceText = squash(resources.map((r) => `${r.content}\n${toString(parse(r.content))}`).join('\n'));

    const results = [];
    for (const q of questions) {
      const started = await call('POST', '/v2/conversations', { query: q.question, live_doc_short_id: livedoc });
      let answer = null;
      for (let i = 0; i < 600 && answer === null; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const thread = await call('GET', `/v2/conversations/${started.thread_short_id}`);
        answer = thread.turns[0]?.answer ?? null;
      }
      answer ??= '';
      const forms = answerForms(body(answer));
      const notCovered = saysNotCovered(answer);
      const altered = quotes(answer).filter((quote) => !sourceText.includes(squash(quote)));
      const r = {
        id: q.id,
        kind: q.kind,
        question: q.question,
        answer,
        missing: q.facts.filter((f) => !hasFact(forms, f)),
        notCovered,
        altered,
        language: inQuestionLanguage(q.question, answer),
        words: words(toString(parse(body(answer)))),
      };
      r.ok = q.kind === 'not-covered' ? notCovered : r.missing.length === 0 && !notCovered;
      results.push(r);
      if (process.env.BENCH_SHOW) console.log(`\n### ${q.id} (${q.kind}): ${q.question}\n${answer}\n`);
    }
    report(results);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(path.join(OUT, 'content-answers.json'), JSON.stringify(results, null, 2));
    console.log(`answers written to ${path.relative(process.cwd(), path.join(OUT, 'content-answers.json'))}`);

    // ---- Decks and landing pages (bench/content/decks-pages.mjs, written with the deck and page work):
    // it exports scanDecksAndPages({ url, key, livedoc, resources }) → { lines: string[] } and is run
    // over the same LiveDoc when present.
    const scanner = path.join(HERE, 'decks-pages.mjs');
    if (existsSync(scanner)) {
      const { scanDecksAndPages } = await import(scanner);
      const scan = await scanDecksAndPages({ url: server.url, key: server.key, livedoc, resources });
      for (const line of scan.lines) console.log(line);
    }
  } finally {
    await server.stop();
  }
}

function report(results) {
  const kinds = [...new Set(results.map((r) => r.kind))];
  const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(0)}%` : '-');
  console.log('kind            questions  answered  quotes altered  false "not covered"');
  for (const kind of kinds) {
    const rs = results.filter((r) => r.kind === kind);
    const falseNc = kind === 'not-covered' ? '-' : String(rs.filter((r) => r.notCovered).length);
    console.log(
      `${kind.padEnd(16)}${String(rs.length).padStart(9)}  ${pct(rs.filter((r) => r.ok).length, rs.length).padStart(8)}  ${String(rs.reduce((n, r) => n + r.altered.length, 0)).padStart(14)}  ${falseNc.padStart(19)}`,
    );
  }
  const answerable = results.filter((r) => r.kind !== 'not-covered');
  const uncovered = results.filter((r) => r.kind === 'not-covered');
  const chinese = results.filter((r) => HAN.test(r.question) && r.kind !== 'not-covered');
  console.log(
    `answered with the fact: ${answerable.filter((r) => r.ok).length}/${answerable.length} (${pct(answerable.filter((r) => r.ok).length, answerable.length)})`,
  );
  console.log(`quotes altered: ${results.reduce((n, r) => n + r.altered.length, 0)}`);
  console.log(
    `"not covered" said when it should be: ${uncovered.filter((r) => r.notCovered).length}/${uncovered.length}; said wrongly: ${answerable.filter((r) => r.notCovered).length}`,
  );
  console.log(`Chinese questions answered in Chinese: ${chinese.filter((r) => r.language).length}/${chinese.length}`);
  const lengths = answerable.map((r) => r.words).sort((a, b) => a - b);
  console.log(
    `answer length in words: median ${lengths[Math.floor(lengths.length / 2)] ?? 0}, longest ${lengths.at(-1) ?? 0}; over 150 words: ${lengths.filter((n) => n > 150).length}`,
  );
  for (const r of results.filter((x) => !x.ok || x.altered.length || !x.language)) {
    const why = [
      r.missing.length ? `missing ${JSON.stringify(r.missing)}` : '',
      r.altered.length ? `altered ${JSON.stringify(r.altered)}` : '',
      r.kind === 'not-covered' && !r.notCovered ? 'did not say "not covered"' : '',
      r.kind !== 'not-covered' && r.notCovered ? 'said "not covered"' : '',
      r.language ? '' : 'not in the question’s language',
    ]
      .filter(Boolean)
      .join('; ');
    console.log(`  ✗ ${r.id}: ${why}`);
  }
}

await main();
