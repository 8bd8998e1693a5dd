// Makes bench/content/docs/ from documents nobody on the project wrote (see SOURCES.md): READMEs and
// docs of npm packages, a Debian HTML manual and a man page, in the formats users upload — Markdown
// as shipped, web pages (Markdown rendered by micromark with GFM, or HTML as shipped), a PDF printed
// by Chromium and a DOCX made by LibreOffice. The outputs are committed; run this again only to
// change the corpus:
//
//   node bench/content/make-corpus.mjs      # needs chromium, soffice, man/groff; pinyin-pro via npm pack
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, '../..');
const OUT = path.join(HERE, 'docs');
const NM = path.join(ROOT, 'node_modules');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'facet-content-corpus-'));

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

function pack(name) {
  const dir = path.join(tmp, name.replace(/\W/g, '_'));
  mkdirSync(dir);
  const file = execFileSync('npm', ['pack', name, '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', file], { cwd: dir });
  return path.join(dir, 'package');
}

function chromiumPdf(htmlFile, pdfFile) {
  execFileSync(
    'chromium',
    ['--headless', '--no-sandbox', '--disable-gpu', `--print-to-pdf=${pdfFile}`, `file://${htmlFile}`],
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

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
try {
  // Markdown, as the packages ship it.
  copyFileSync(path.join(NM, 'debug/README.md'), path.join(OUT, 'debug-readme.md'));
  copyFileSync(path.join(NM, 'pino/docs/benchmarks.md'), path.join(OUT, 'pino-benchmarks.md'));
  copyFileSync(path.join(NM, 'commander/Readme.md'), path.join(OUT, 'commander-readme.md'));

  // Web pages rendered from the packages' Markdown (pino's LTS table; pinyin-pro's Chinese README
  // with its HTML tables of figures).
  writeFileSync(
    path.join(OUT, 'pino-lts.html'),
    webPage(readFileSync(path.join(NM, 'pino/docs/lts.md'), 'utf8'), 'Pino Long Term Support'),
  );
  const pinyin = pack('pinyin-pro@3.29.4');
  writeFileSync(
    path.join(OUT, 'pinyin-pro-readme.html'),
    webPage(readFileSync(path.join(pinyin, 'README.md'), 'utf8'), 'pinyin-pro', 'zh-CN'),
  );

  // A Debian HTML manual as shipped, and a man page as groff renders it to HTML.
  copyFileSync('/usr/share/doc/base-passwd/users-and-groups.html', path.join(OUT, 'debian-users-and-groups.html'));
  writeFileSync(
    path.join(OUT, 'gzip-man.html'),
    execFileSync('man', ['-Thtml', 'gzip'], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '80' } }),
  );

  // A PDF printed by Chromium (buffer's README: a benchmark table of numbers).
  const bufferHtml = path.join(tmp, 'buffer-readme.html');
  writeFileSync(bufferHtml, webPage(readFileSync(path.join(NM, 'buffer/README.md'), 'utf8'), 'buffer'));
  chromiumPdf(bufferHtml, path.join(OUT, 'buffer-readme.pdf'));

  // A DOCX made by LibreOffice from the rendered page (winston's README: options table, levels, code).
  const winstonHtml = path.join(tmp, 'winston-readme.html');
  writeFileSync(winstonHtml, webPage(readFileSync(path.join(NM, 'winston/README.md'), 'utf8'), 'winston'));
  libreOfficeDocx(winstonHtml, OUT);

  for (const f of readdirSync(OUT)) console.log(`${f}\t${readFileSync(path.join(OUT, f)).length} bytes`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
