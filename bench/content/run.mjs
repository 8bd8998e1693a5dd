// bench/content: do answers say what real documents say? The corpus in docs/ (documents nobody on the
// project wrote, see SOURCES.md; made by make-corpus.mjs) is split into dev and held-out documents
// (splits.json, fixed before any tuning). Each split's documents go into a LiveDoc of their own through
// the real API (`facet serve`): uploaded (POST /v2/livedocs/{id}/resources/upload-doc), or — the web
// pages splits.json marks "url" — served from a local 127.0.0.1 server and added by URL
// (POST .../resources/urls; facet serve runs with --allow-fetch-from 127.0.0.1). Every question of the
// split (questions.dev.json, questions.heldout.json; made by make-questions.mjs) is asked the way
// `facet ask` asks (POST /v2/conversations, the answer read back from the thread). It reports, per split,
// per kind of question and in all:
//
//   - answered with the fact: every expected fact (or one of its alternatives) is in the answer;
//   - quotes altered: a code span or code-block line of an answer that is not verbatim in a source;
//   - "not covered": said for the questions the documents cannot answer, and wrongly for answerable ones;
//   - a question in Chinese or Japanese answered in that script (its lead-in; facts quoted);
//   - the median answer length in words.
//
// Held-out questions are reported in figures only: their ids, answers and missing facts are neither
// printed nor written to .bench-tmp (the engine is tuned on dev alone) unless BENCH_SHOW_HELDOUT=1.
// Decks and landing pages made from the dev LiveDoc are scanned by decks-pages.mjs (BENCH_DECKS=0
// skips it). Needs `npm run build`.
//
//   node bench/content/run.mjs                 # both splits
//   BENCH_SPLIT=dev node bench/content/run.mjs # one split (dev, heldout or all)
//   BENCH_ONLY=lts-8-end,debug-all BENCH_SPLIT=dev node bench/content/run.mjs
//   BENCH_SHOW=1 node bench/content/run.mjs    # print every dev answer (read them as a reader would)
//   BENCH_DUMP=1 node bench/content/run.mjs    # also write each document as extracted to .bench-tmp/extracted/
//   (each split ends with an answers digest: equal digests, equal answers)
//   BENCH_CONCURRENCY=3 ...                    # questions asked at once (default 2)
//   BENCH_SERVE_ARGS='--default-model <name>'  # extra `facet serve` arguments
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
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
const SPLITS = { all: ['dev', 'heldout'], dev: ['dev'], heldout: ['heldout'] }[process.env.BENCH_SPLIT ?? 'all'];
if (!SPLITS) throw new Error(`BENCH_SPLIT=${process.env.BENCH_SPLIT}: expected dev, heldout or all`);
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 2));
const manifest = JSON.parse(readFileSync(path.join(HERE, 'splits.json'), 'utf8')).docs;
const questionsOf = (split) =>
  JSON.parse(readFileSync(path.join(HERE, `questions.${split}.json`), 'utf8')).filter((q) => !only || only.has(q.id));

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

/** A Chinese or Japanese question gets a frame in its script: the answer's first letter (its lead-in) is CJK. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
function inQuestionLanguage(question, answer) {
  if (!CJK.test(question)) return true;
  const first = /[\p{L}]/u.exec(toString(parse(answer.split('\n')[0])));
  return first !== null && CJK.test(first[0]);
}

/** The answer without its list of sources: what the reader reads as the answer. */
function body(answer) {
  const at = answer.search(/\n(?:Sources|来源|出典)[:：]\n/);
  return at === -1 ? answer : answer.slice(0, at);
}

const words = (text) =>
  [...new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text)].filter((s) => s.isWordLike).length;

/** Serves docs/ on 127.0.0.1, for the documents a split adds by URL. */
async function serveDocs() {
  const types = {
    '.html': 'text/html; charset=utf-8',
    '.md': 'text/markdown; charset=utf-8',
    '.txt': 'text/plain; charset=utf-8',
  };
  const server = createServer((req, res) => {
    const file = decodeURIComponent(new URL(req.url, 'http://x').pathname.slice(1));
    if (!manifest[file]) return res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(path.join(DOCS, file)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

async function main() {
  const extra = (process.env.BENCH_SERVE_ARGS ?? '').split(' ').filter(Boolean);
  const server = await startPlatform([...extra, '--allow-fetch-from', '127.0.0.1']);
  const pages = await serveDocs();
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

  /** A LiveDoc holding every document of the split, each added the way splits.json says. */
  async function loadSplit(split) {
    const livedoc = (await call('POST', '/v2/livedocs', { name: `Real documents (${split})` })).short_id;
    const resources = [];
    for (const [file, meta] of Object.entries(manifest).filter(([, m]) => m.split === split)) {
      let id;
      if (meta.add === 'url') {
        const [added] = await call('POST', `/v2/livedocs/${livedoc}/resources/urls`, {
          urls: [`${pages.url}/${file}`],
        });
        if (added.status !== 'success') throw new Error(`add ${file} by URL: ${added.status} ${added.fail_reason}`);
        id = added.resource_id;
      } else {
        const form = new FormData();
        form.append('file', new Blob([readFileSync(path.join(DOCS, file))]), file);
        const res = await fetch(`${server.url}/v2/livedocs/${livedoc}/resources/upload-doc`, {
          method: 'POST',
          headers: auth,
          body: form,
        });
        const json = await res.json();
        if (!res.ok) throw new Error(`upload ${file}: ${res.status} ${JSON.stringify(json)}`);
        id = json.data.id;
      }
      const content = await call('GET', `/v2/livedocs/${livedoc}/resources/${id}/content`);
      resources.push({ file, id, content: typeof content === 'string' ? content : content.content });
    }
    if (process.env.BENCH_DUMP) {
      mkdirSync(path.join(OUT, 'extracted'), { recursive: true });
      for (const r of resources) writeFileSync(path.join(OUT, 'extracted', `${r.file}.md`), r.content);
    }
    return { livedoc, resources };
  }

  async function ask(q, livedoc, sourceText) {
    const started = await call('POST', '/v2/conversations', { query: q.question, live_doc_short_id: livedoc });
    let answer = null;
    for (let i = 0; i < 1200 && answer === null; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const thread = await call('GET', `/v2/conversations/${started.thread_short_id}`);
      answer = thread.turns[0]?.answer ?? null;
    }
    answer ??= '';
    const forms = answerForms(body(answer));
    const notCovered = saysNotCovered(answer);
    const r = {
      id: q.id,
      kind: q.kind,
      docs: q.docs,
      origin: q.origin,
      question: q.question,
      answer,
      missing: q.facts.filter((f) => !hasFact(forms, f)),
      notCovered,
      altered: quotes(answer).filter((quote) => !sourceText.includes(squash(quote))),
      language: inQuestionLanguage(q.question, answer),
      words: words(toString(parse(body(answer)))),
    };
    r.ok = q.kind === 'not-covered' ? notCovered : r.missing.length === 0 && !notCovered;
    return r;
  }

  try {
    const started = Date.now();
    mkdirSync(OUT, { recursive: true });
    let devLoad = null;
    const shares = {};
    for (const split of SPLITS) {
      const load = await loadSplit(split);
      if (split === 'dev') devLoad = load;
      // A quote is faithful when it is verbatim in a source: its Markdown, or the text a reader sees.
      const sourceText = squash(load.resources.map((r) => `${r.content}\n${toString(parse(r.content))}`).join('\n'));
      const questions = questionsOf(split);
      const results = new Array(questions.length);
      let next = 0;
      let done = 0;
      const show = split === 'dev' || process.env.BENCH_SHOW_HELDOUT;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < questions.length) {
            const i = next++;
            results[i] = await ask(questions[i], load.livedoc, sourceText);
            if (++done % 50 === 0) console.error(`${split}: ${done}/${questions.length} asked`);
            if (process.env.BENCH_SHOW && show)
              console.log(
                `\n### ${questions[i].id} (${questions[i].kind}): ${questions[i].question}\n${results[i].answer}\n`,
              );
          }
        }),
      );
      report(split, load.resources.length, results, show);
      // One hash of every answer in question order: a change meant to keep every answer as it was
      // (a refactor) is checked on held-out too, without its answers being read. The pages' server
      // listens on a new port each run, so its address is left out.
      const digest = createHash('sha256');
      for (const r of results) digest.update(`${r.id}\0${r.answer.replaceAll(pages.url, '')}\0`);
      console.log(`answers digest: ${digest.digest('hex').slice(0, 16)}`);
      const answerable = results.filter((r) => r.kind !== 'not-covered');
      shares[split] = answerable.length ? (100 * answerable.filter((r) => r.ok).length) / answerable.length : null;
      if (show) {
        const file = path.join(OUT, `content-answers.${split}.json`);
        writeFileSync(file, JSON.stringify(results, null, 2));
        console.log(`answers written to ${path.relative(process.cwd(), file)}\n`);
      }
    }
    if (shares.dev != null && shares.heldout != null)
      console.log(`dev/held-out gap in answered with the fact: ${(shares.dev - shares.heldout).toFixed(1)} points`);
    console.log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);

    // ---- Decks and landing pages (bench/content/decks-pages.mjs): scanDecksAndPages({ url, key,
    // livedoc, resources }) → { lines: string[] }, run over the dev LiveDoc.
    const scanner = path.join(HERE, 'decks-pages.mjs');
    if (devLoad && existsSync(scanner) && process.env.BENCH_DECKS !== '0') {
      const { scanDecksAndPages } = await import(scanner);
      const scan = await scanDecksAndPages({ url: server.url, key: server.key, ...devLoad });
      for (const line of scan.lines) console.log(line);
    }
  } finally {
    pages.close();
    // BENCH_KEEP_DATA=1 leaves the server's data dir (its LiveDocs, indexed) to look into afterwards.
    const keepData = Boolean(process.env.BENCH_KEEP_DATA);
    await server.stop({ keepData });
    if (keepData) console.log(`data dir kept: ${server.dataDir}`);
  }
}

function report(split, documents, results, show) {
  const kinds = [...new Set(results.map((r) => r.kind))];
  const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(0)}%` : '-');
  const median = (rs) => {
    const l = rs.map((r) => r.words).sort((a, b) => a - b);
    return l[Math.floor(l.length / 2)] ?? 0;
  };
  console.log(`== ${split}: ${documents} documents, ${results.length} questions`);
  console.log('kind              questions  answered  quotes altered  wrongly "not covered"  median words');
  for (const kind of kinds) {
    const rs = results.filter((r) => r.kind === kind);
    const falseNc = kind === 'not-covered' ? '-' : String(rs.filter((r) => r.notCovered).length);
    console.log(
      `${kind.padEnd(18)}${String(rs.length).padStart(9)}  ${pct(rs.filter((r) => r.ok).length, rs.length).padStart(8)}  ${String(rs.reduce((n, r) => n + r.altered.length, 0)).padStart(14)}  ${falseNc.padStart(21)}  ${String(median(rs)).padStart(12)}`,
    );
  }
  const answerable = results.filter((r) => r.kind !== 'not-covered');
  const uncovered = results.filter((r) => r.kind === 'not-covered');
  const cjk = results.filter((r) => CJK.test(r.question) && r.kind !== 'not-covered');
  const answered = answerable.filter((r) => r.ok).length;
  const refused = answerable.filter((r) => r.notCovered).length;
  console.log(`answered with the fact: ${answered}/${answerable.length} (${pct(answered, answerable.length)})`);
  for (const origin of ['generated', 'hand']) {
    const rs = answerable.filter((r) => r.origin === origin);
    if (rs.length)
      console.log(
        `  ${origin}: ${rs.filter((r) => r.ok).length}/${rs.length} (${pct(rs.filter((r) => r.ok).length, rs.length)})`,
      );
  }
  // By the upload format of a question's one document (what extraction of that format costs).
  const formats = [...new Set(Object.values(manifest).map((m) => m.format))];
  const byFormat = formats
    .map((format) => {
      const rs = answerable.filter((r) => r.docs.length === 1 && manifest[r.docs[0]].format === format);
      return rs.length ? `${format} ${rs.filter((r) => r.ok).length}/${rs.length}` : '';
    })
    .filter(Boolean);
  console.log(`  by format: ${byFormat.join(', ')}`);
  console.log(`quotes altered: ${results.reduce((n, r) => n + r.altered.length, 0)}`);
  console.log(
    `unanswerable said "not covered": ${uncovered.filter((r) => r.notCovered).length}/${uncovered.length} (${pct(uncovered.filter((r) => r.notCovered).length, uncovered.length)})`,
  );
  console.log(`answerable wrongly refused: ${refused}/${answerable.length} (${pct(refused, answerable.length)})`);
  console.log(
    `Chinese/Japanese questions answered in their script: ${cjk.filter((r) => r.language).length}/${cjk.length}`,
  );
  const lengths = answerable.map((r) => r.words).sort((a, b) => a - b);
  console.log(
    `answer length in words: median ${lengths[Math.floor(lengths.length / 2)] ?? 0}, longest ${lengths.at(-1) ?? 0}; over 150 words: ${lengths.filter((n) => n > 150).length}`,
  );
  if (!show) return;
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
