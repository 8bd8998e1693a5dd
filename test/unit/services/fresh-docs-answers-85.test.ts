import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Session 85's fresh check: logrotate(8) (groff HTML), screen's FAQ (plain text), ws's README
 * printed by Chromium, with session 84's flock(1), serve-static's README (DOCX) and XZ Utils' README; questions written
 * before any answer was read.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const read = (f: string) => readFileSync(path.join(FIXTURES, f));
const docs = async () => [
  { id: 'logrotate', title: 'LOGROTATE', text: extractHtml(read('logrotate.html').toString('utf8')).markdown },
  { id: 'screen-faq', title: 'screen-faq', text: plainTextToMarkdown(read('screen-faq.txt').toString('utf8')) },
  { id: 'ws', title: 'ws', text: (await extractDocument('pdf', read('ws-readme.pdf'))).text },
  { id: 'flock', title: 'FLOCK', text: extractHtml(read('flock.html').toString('utf8')).markdown },
  {
    id: 'serve-static',
    title: 'serve-static',
    text: (await extractDocument('docx', read('serve-static-readme.docx'))).text,
  },
  { id: 'xz-utils', title: 'xz-utils-readme', text: plainTextToMarkdown(read('xz-utils-readme.txt').toString('utf8')) },
];

describeAnswersOver('session 85: fresh documents', docs, (ask) => {
  it("says logrotate's default mail command, from the paragraph after the list -m's description leads into", async () => {
    const answer = await ask("What is logrotate's default mail command?");
    expect(answer).toContain('The default mail command is _/usr/bin/mail_.');
    expect(answer).toMatch(/^\*\*-m\*\*, \*\*--mail\*\* _command_:/);
  });

  it('tells compressoptions from compresscmd: a name English never says keeps its whole stem', async () => {
    const answer = await ask('What are the default compressoptions for gzip in logrotate?');
    expect(answer).toContain('The default, for **gzip**(1), is "-6"');
    expect(answer).not.toContain('**compresscmd**');
  });

  it('quotes a FAQ\'s answer hung from its "A:" as prose, the patch in its sentence', async () => {
    const answer = await ask('Which AIX patch fixes the seteuid problem with screen?');
    expect(answer).toContain('you need the AIX patch PTF 423674.');
    expect(answer).not.toContain('```');
  });

  it("leaves a PDF's table of contents out: its entries are the headings, not answers", async () => {
    const answer = await ask('How do I connect to a ws server through a proxy?');
    expect(answer).toContain('Use a custom `http.Agent` implementation like https-proxy-agent or socks-proxy-agent.');
    expect(answer).not.toContain('How to connect via a proxy?');
  });

  it('asks a later part naming no source of the source an earlier part names', async () => {
    const answer = await ask(
      'What exit code does flock use by default when the lock cannot be acquired with -n, and which option changes it?',
    );
    expect(answer).toContain('or 1 by default');
    // Every citation is flock's: none of another source's option or directive.
    expect(new Set(answer.match(/\[\d+\]/g))).toHaveProperty('size', 1);
  });
});

/** The second fresh check: Helmet's README (HTML by URL), crontab(5) (groff HTML), bcrypt's README (Chromium PDF). */
const secondDocs = async () => [
  { id: 'helmet', title: 'Helmet', text: extractHtml(read('helmet-readme.html').toString('utf8')).markdown },
  { id: 'crontab', title: 'CRONTAB', text: extractHtml(read('crontab.html').toString('utf8')).markdown },
  { id: 'logrotate', title: 'LOGROTATE', text: extractHtml(read('logrotate.html').toString('utf8')).markdown },
  { id: 'bcrypt', title: 'node.bcrypt.js', text: (await extractDocument('pdf', read('bcrypt-readme.pdf'))).text },
];

describeAnswersOver('session 85: a second fresh check', secondDocs, (ask) => {
  it('says a "Default:" with the block it leads into, and not a sibling header\'s', async () => {
    const answer = await ask("What is Helmet's default Cross-Origin-Opener-Policy?");
    expect(answer).toContain('Cross-Origin-Opener-Policy: same-origin');
    expect(answer).not.toContain('Cross-Origin-Resource-Policy');
    // The lead-in is said once.
    expect(answer.match(/Default:/g)).toHaveLength(1);
    const frame = await ask('Which X-Frame-Options action does Helmet use by default?');
    expect(frame).toContain('X-Frame-Options: SAMEORIGIN');
  });

  it("answers a crontab field's allowed values from the table groff laid out with tab stops", async () => {
    const answer = await ask('What are the allowed values of the hour field in a crontab?');
    expect(answer).toContain('| hour | 0-23 |');
  });

  it("answers a parameter's default from the list under its call's signature, not another call's", async () => {
    const answer = await ask("What is the default number of rounds for bcrypt's genSalt?");
    expect(answer).toContain('`rounds` - \\[OPTIONAL] - the cost of processing the data. (default - 10)');
  });
});

describeAnswersOver(
  "session 85: a default stated without its subject is its paragraph's",
  async () => [
    {
      id: 'body-parser',
      title: 'body-parser',
      text: (await extractDocument('docx', read('body-parser-readme.docx'))).text,
    },
  ],
  (ask) => {
    it('answers "Defaults to \'100kb\'." for the limit its paragraph opens on', async () => {
      const answer = await ask('What is the default request body size limit in body-parser?');
      expect(answer).toContain("Defaults to `'100kb'`.");
    });
  },
);
