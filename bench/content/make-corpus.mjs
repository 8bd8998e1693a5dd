// Makes bench/content/docs/ from documents nobody on the project wrote (see SOURCES.md): READMEs and
// docs of npm packages, Debian's /usr/share/doc and man pages, in the formats users upload —
// Markdown as shipped, web pages (Markdown rendered by micromark with GFM, or HTML as shipped; some
// are added by URL by run.mjs), PDFs printed by Chromium, DOCX made by LibreOffice, plain text and
// man pages rendered to HTML by groff. Which split (dev or held-out) each document belongs to is in
// splits.json. The outputs are committed; run this again only to change the corpus:
//
//   node bench/content/make-corpus.mjs      # needs chromium, soffice, man/groff; some packages via npm pack
//
// Files already in docs/ are kept as they are (a PDF printed again differs in its bytes); set
// CORPUS_REBUILD=1 to make every file again. The Markdown a web page, PDF or DOCX was made from is kept
// in sources/ (make-questions.mjs reads the documents' structure there).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, '../..');
const OUT = path.join(HERE, 'docs');
const SOURCES = path.join(HERE, 'sources');
const NM = path.join(ROOT, 'node_modules');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'facet-content-corpus-'));
const rebuild = Boolean(process.env.CORPUS_REBUILD);

/** A Markdown file rendered as a plain web page, the way a docs site or GitHub would show it. */
function webPage(markdown, title, lang = 'en') {
  const body = micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<title>${title}</title>
<style>
body { font-family: sans-serif; max-width: 52rem; margin: 2rem auto; line-height: 1.5; padding: 0 1rem; }
pre { background: #f4f4f4; padding: 0.6rem; overflow-x: auto; }
code { font-family: monospace; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const packed = new Map();
/** A package's files from the npm registry (`npm pack`), for packages not in node_modules. */
function pack(name) {
  if (packed.has(name)) return packed.get(name);
  const dir = path.join(tmp, name.replace(/\W/g, '_'));
  mkdirSync(dir);
  const file = execFileSync('npm', ['pack', name, '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', file], { cwd: dir });
  packed.set(name, path.join(dir, 'package'));
  return path.join(dir, 'package');
}

function chromiumPdf(htmlFile, pdfFile) {
  execFileSync(
    'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--print-to-pdf=${pdfFile}`,
      `file://${htmlFile}`,
    ],
    { stdio: 'ignore', timeout: 120_000 },
  );
}

function libreOfficeDocx(htmlFile, outDir) {
  execFileSync(
    'soffice',
    [
      '--headless',
      `-env:UserInstallation=file://${path.join(tmp, 'lo-profile')}`,
      '--infilter=HTML (StarWriter)',
      '--convert-to',
      'docx:MS Word 2007 XML',
      '--outdir',
      outDir,
      htmlFile,
    ],
    { stdio: 'ignore', timeout: 180_000 },
  );
}

const manHtml = (page) =>
  execFileSync('man', ['-Thtml', page], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '80' } });
const gunzip = (file) => execFileSync('gzip', ['-dc', file], { encoding: 'utf8' });

/**
 * The corpus: each document's file name, how it is made, and the Markdown it was made from (kept in
 * sources/ for documents whose own format is not Markdown). Splits are in splits.json.
 */
const nm = (rel) => () => readFileSync(path.join(NM, rel), 'utf8');
const npm = (spec, rel) => () => readFileSync(path.join(pack(spec), rel), 'utf8');
const CORPUS = [
  // Markdown, as the packages ship it.
  { file: 'debug-readme.md', markdown: nm('debug/README.md') },
  { file: 'pino-benchmarks.md', markdown: nm('pino/docs/benchmarks.md') },
  { file: 'commander-readme.md', markdown: nm('commander/Readme.md') },
  { file: 'http-errors-readme.md', markdown: nm('http-errors/README.md') },
  { file: 'nzh-readme.md', markdown: npm('nzh@1.0.14', 'README.md') },
  {
    file: 'textlint-ja-technical-writing-readme.md',
    markdown: npm('textlint-rule-preset-ja-technical-writing@12.0.2', 'README.md'),
  },
  { file: 'prompts-readme.md', markdown: nm('prompts/readme.md') },
  { file: 'express-rate-limit-readme.md', markdown: nm('express-rate-limit/readme.md') },
  { file: 'pinyin-readme.md', markdown: npm('pinyin@4.0.0', 'README.md') },
  { file: 'fecha-readme.md', markdown: nm('fecha/README.md') },
  { file: 'send-readme.md', markdown: nm('send/README.md') },
  // Web pages rendered from the packages' Markdown (uploaded as files, or added by URL: splits.json).
  { file: 'pino-lts.html', web: ['Pino Long Term Support'], markdown: nm('pino/docs/lts.md') },
  { file: 'pinyin-pro-readme.html', web: ['pinyin-pro', 'zh-CN'], markdown: npm('pinyin-pro@3.29.4', 'README.md') },
  { file: 'uuid-readme.html', web: ['uuid'], markdown: nm('uuid/README.md') },
  { file: 'kuroshiro-readme-ja.html', web: ['kuroshiro', 'ja'], markdown: npm('kuroshiro@1.2.0', 'README.jp.md') },
  { file: 'serve-handler-readme.html', web: ['serve-handler'], markdown: nm('serve-handler/README.md') },
  { file: 'markdown-table-readme.html', web: ['markdown-table'], markdown: nm('markdown-table/readme.md') },
  { file: 'cookies-readme.html', web: ['cookies'], markdown: nm('cookies/README.md') },
  { file: 'arg-readme.html', web: ['arg'], markdown: nm('arg/README.md') },
  { file: 'cookie-readme.html', web: ['cookie'], markdown: npm('cookie@1.1.1', 'README.md') },
  // HTML manuals as shipped, and man pages as groff renders them to HTML.
  { file: 'debian-users-and-groups.html', copy: '/usr/share/doc/base-passwd/users-and-groups.html' },
  { file: 'gzip-man.html', man: 'gzip' },
  { file: 'pdftoppm-man.html', man: 'pdftoppm' },
  { file: 'sort-man.html', man: 'sort' },
  { file: 'pdftotext-man.html', man: 'pdftotext' },
  { file: 'bzip2-man.html', man: 'bzip2' },
  { file: 'cut-man.html', man: 'cut' },
  { file: 'du-man.html', man: 'du' },
  { file: 'date-man.html', man: 'date' },
  { file: 'cmp-man.html', man: 'cmp' },
  { file: 'xargs-man.html', man: 'xargs' },
  { file: 'timeout-man.html', man: 'timeout' },
  // PDFs printed by Chromium from the rendered README.
  { file: 'buffer-readme.pdf', pdf: 'buffer', markdown: nm('buffer/README.md') },
  { file: 'picomatch-readme.pdf', pdf: 'picomatch', markdown: nm('picomatch/README.md') },
  { file: 'std-env-readme.pdf', pdf: 'std-env', markdown: nm('std-env/README.md') },
  { file: 'turndown-readme.pdf', pdf: 'turndown', markdown: nm('turndown/README.md') },
  { file: 'nodejieba-readme.pdf', pdf: 'nodejieba', markdown: npm('nodejieba@3.5.8', 'README.md') },
  // DOCX made by LibreOffice from the rendered README.
  { file: 'winston-readme.docx', docx: 'winston', markdown: nm('winston/README.md') },
  { file: 'bytes-readme.docx', docx: 'bytes', markdown: nm('bytes/Readme.md') },
  { file: 'logform-readme.docx', docx: 'logform', markdown: nm('logform/README.md') },
  { file: 'word-wrap-readme.docx', docx: 'word-wrap', markdown: nm('word-wrap/README.md') },
  { file: 'chalk-readme.docx', docx: 'chalk', markdown: nm('chalk/readme.md') },
  // Plain text from Debian's /usr/share/doc, as shipped (decompressed).
  { file: 'valgrind-faq.txt', text: () => gunzip('/usr/share/doc/valgrind/FAQ.txt.gz') },
  { file: 'gdb-readme.txt', text: () => gunzip('/usr/share/doc/gdb/README.gz') },
  { file: 'util-linux-parse-date.txt', text: () => gunzip('/usr/share/doc/util-linux/parse-date.txt.gz') },
  { file: 'zlib-faq.txt', text: () => gunzip('/usr/share/doc/zlib1g-dev/FAQ.gz') },
];

mkdirSync(OUT, { recursive: true });
mkdirSync(SOURCES, { recursive: true });
try {
  for (const doc of CORPUS) {
    const target = path.join(OUT, doc.file);
    const stem = doc.file.replace(/\.[^.]+$/, '');
    const markdown = doc.markdown?.();
    if (markdown !== undefined && !doc.file.endsWith('.md')) writeFileSync(path.join(SOURCES, `${stem}.md`), markdown);
    if (existsSync(target) && !rebuild) continue;
    if (doc.file.endsWith('.md')) writeFileSync(target, markdown);
    else if (doc.web) writeFileSync(target, webPage(markdown, ...doc.web));
    else if (doc.copy) copyFileSync(doc.copy, target);
    else if (doc.man) writeFileSync(target, manHtml(doc.man));
    else if (doc.text) writeFileSync(target, doc.text());
    else if (doc.pdf || doc.docx) {
      const html = path.join(tmp, `${stem}.html`);
      writeFileSync(html, webPage(markdown, doc.pdf ?? doc.docx));
      if (doc.pdf) chromiumPdf(html, target);
      else {
        libreOfficeDocx(html, tmp);
        copyFileSync(path.join(tmp, `${stem}.docx`), target);
      }
    }
    console.log(`${doc.file}\t${readFileSync(target).length} bytes`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
