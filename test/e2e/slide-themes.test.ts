import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { slideXmls } from '../helpers/deck-check.js';

let p: Platform;
let files: string;

/**
 * A PowerPoint template as PowerPoint writes one: two theme parts, the slide master's being the
 * second (so "the first theme file" would be the wrong answer), a system colour for dark 1, and the
 * Office fonts, which are not free.
 */
async function template(options: { dk1?: string; lt1?: string; name?: string } = {}): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
  );
  zip.file(
    'ppt/presentation.xml',
    '<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>',
  );
  zip.file('ppt/slideMasters/slideMaster1.xml', '<p:sldMaster/>');
  zip.file(
    'ppt/slideMasters/_rels/slideMaster1.xml.rels',
    '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>' +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme" Target="../theme/theme2.xml"/></Relationships>',
  );
  const theme = (name: string, accent: string, dk1: string, lt1: string) =>
    `<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="${name}"><a:themeElements><a:clrScheme name="${name}">` +
    `<a:dk1>${dk1}</a:dk1><a:lt1>${lt1}</a:lt1><a:dk2><a:srgbClr val="1F3A5F"/></a:dk2><a:lt2><a:srgbClr val="EEF2F6"/></a:lt2>` +
    `<a:accent1><a:srgbClr val="${accent}"/></a:accent1><a:accent2><a:srgbClr val="2E8B57"/></a:accent2><a:accent3><a:srgbClr val="999999"/></a:accent3>` +
    `</a:clrScheme><a:fontScheme name="Office"><a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/></a:majorFont>` +
    `<a:minorFont><a:latin typeface="Times New Roman"/><a:ea typeface=""/></a:minorFont></a:fontScheme></a:themeElements></a:theme>`;
  zip.file(
    'ppt/theme/theme1.xml',
    theme('Notes theme', '00FF00', '<a:srgbClr val="000000"/>', '<a:srgbClr val="FFFFFF"/>'),
  );
  zip.file(
    'ppt/theme/theme2.xml',
    theme(
      options.name ?? 'Harbour &amp; Co',
      'B03A2E',
      options.dk1 ?? '<a:sysClr val="windowText" lastClr="111111"/>',
      options.lt1 ?? '<a:sysClr val="window" lastClr="FFFFFF"/>',
    ),
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

const expectV2Error = (r: { exitCode: number; stderr: string }, code: string, status: number) => {
  expect(r.exitCode, r.stderr).not.toBe(0);
  expect(r.stderr).toContain(`code ${code}, HTTP ${status}`);
};

beforeAll(async () => {
  p = await startPlatform();
  files = tempDir('themes');
}, 60_000);
afterAll(() => p?.cleanup());

describe('custom slide themes through the CLI', () => {
  it("facet slides themes import takes the slide master's colours and fonts (free fonts for the Office ones) and a deck is written with them", async () => {
    const file = path.join(files, 'brand.potx');
    writeFileSync(file, await template());
    // Piped, the new id alone (the create rule).
    const id = ok(await p.cli(['slides', 'themes', 'import', file])).stdout.trim();
    expect(id).toMatch(/^theme_[a-z0-9]+$/);
    const theme = okJson(await p.cli(['slides', 'themes', '--type', 'custom', '--json'])).items.find(
      (t: { id: string }) => t.id === id,
    );
    expect(theme).toMatchObject({
      title: 'Harbour & Co',
      type: 'custom',
      colors: {
        background: '#FFFFFF',
        text: '#111111',
        accent: '#B03A2E',
        accent2: '#2E8B57',
        surface: '#EEF2F6',
        muted: '#1F3A5F',
      },
      fonts: { heading: 'Carlito', body: 'Liberation Serif' },
    });
    expect(theme.description).toBe(
      'From brand.potx (fonts: Calibri Light → Carlito, Times New Roman → Liberation Serif)',
    );

    const ld = okJson(await p.cli(['livedocs', 'create', 'Harbour notes', '--json'])).short_id;
    ok(
      await p.cli([
        'livedocs',
        'resources',
        'add-doc',
        ld,
        '--title',
        'Harbour',
        '--content',
        '# Harbour\n\nThe harbour handled 2.1 million containers in 2025, ten percent more than in 2024. New cranes cut the time a ship waits by a third.',
      ]),
    );
    const task = okJson(
      await p.cli(['slides', 'create', 'How busy is the harbour?', '--livedoc', ld, '--theme', id, '--json']),
    ).task_id;
    const deck = path.join(files, 'harbour.pptx');
    const done = okJson(
      await p.cli(['slides', 'wait', task, '--interval', '2', '--out', deck, '--json'], { timeout: 240_000 }),
    );
    expect(done.task_status).toBe('COMPLETED');
    const { slides } = await slideXmls(readFileSync(deck));
    // The template's accent and text colours and its heading font's free stand-in are in the slides.
    const all = slides.join('');
    expect(all).toContain('B03A2E');
    expect(all).toContain('111111');
    expect(all).toContain('typeface="Carlito"');
  }, 300_000);

  it('facet slides themes create makes one from colours; list shows it by default; delete removes it once', async () => {
    const id = ok(
      await p.cli([
        'slides',
        'themes',
        'create',
        'Harbour light',
        '--background',
        '#F7FAFC',
        '--text',
        '#1A202C',
        '--accent',
        '#2B6CB0',
        '--heading-font',
        'Lato',
        '--bullet-style',
        'bar',
      ]),
    ).stdout.trim();
    expect(id).toMatch(/^theme_/);
    const listed = ok(await p.cli(['slides', 'themes'])).stdout;
    expect(listed).toContain(id);
    expect(listed).toContain('midnight');
    expect(okJson(await p.cli(['slides', 'themes', 'delete', id, '--yes', '--json']))).toEqual({ id, deleted: true });
    expect(ok(await p.cli(['slides', 'themes', 'list', '--type', 'custom'])).stdout).not.toContain(id);
    expectV2Error(await p.cli(['slides', 'themes', 'delete', id, '--yes']), 'NOT_FOUND', 404);
    // Without --yes and without a terminal to ask on: a usage error, nothing deleted.
    const kept = ok(
      await p.cli([
        'slides',
        'themes',
        'create',
        'Kept',
        '--background',
        '#FFFFFF',
        '--text',
        '#000000',
        '--accent',
        '#2B6CB0',
      ]),
    ).stdout.trim();
    const refused = await p.cli(['slides', 'themes', 'delete', kept]);
    expect(refused.exitCode).toBe(2);
    expect(ok(await p.cli(['slides', 'themes', 'list', '--type', 'custom'])).stdout).toContain(kept);
  }, 60_000);

  it('refuses what is not a template, an unreadable template, a title past 100 characters, and deleting a default theme', async () => {
    const text = path.join(files, 'notes.txt');
    writeFileSync(text, 'not a zip');
    const notZip = await p.cli(['slides', 'themes', 'import', text]);
    expectV2Error(notZip, 'INVALID_PARAMETER', 400);
    expect(notZip.stderr).toContain('notes.txt: the file is not a PowerPoint file');

    const noTheme = path.join(files, 'empty.pptx');
    writeFileSync(
      noTheme,
      await new JSZip().file('ppt/presentation.xml', '<p:presentation/>').generateAsync({ type: 'nodebuffer' }),
    );
    expectV2Error(await p.cli(['slides', 'themes', 'import', noTheme]), 'INVALID_PARAMETER', 400);

    const pale = path.join(files, 'pale.pptx');
    writeFileSync(pale, await template({ dk1: '<a:srgbClr val="DDDDDD"/>' }));
    const low = await p.cli(['slides', 'themes', 'import', pale]);
    expectV2Error(low, 'INVALID_PARAMETER', 400);
    expect(low.stderr).toMatch(/pale\.pptx: colors\.text #DDDDDD .* contrast/);

    const good = path.join(files, 'good.pptx');
    writeFileSync(good, await template());
    expect(okJson(await p.cli(['slides', 'themes', 'import', good, '--title', 'x'.repeat(100), '--json'])).title).toBe(
      'x'.repeat(100),
    );
    expectV2Error(
      await p.cli(['slides', 'themes', 'import', good, '--title', 'x'.repeat(101)]),
      'INVALID_PARAMETER',
      400,
    );

    expectV2Error(await p.cli(['slides', 'themes', 'delete', 'midnight', '--yes']), 'INVALID_PARAMETER', 400);
    // Nothing above was stored but the one good import.
    expect(
      okJson(await p.cli(['slides', 'themes', '--type', 'custom', '--json'])).items.filter((t: { title: string }) =>
        t.title.startsWith('xxx'),
      ),
    ).toHaveLength(1);
  }, 60_000);

  it("another user's theme can be neither seen nor deleted", async () => {
    const id = ok(
      await p.cli([
        'slides',
        'themes',
        'create',
        'Mine',
        '--background',
        '#FFFFFF',
        '--text',
        '#000000',
        '--accent',
        '#2B6CB0',
      ]),
    ).stdout.trim();
    const user = okJson(
      await p.cli(['serve', 'users', 'create', 'theme-neighbour', '--data-dir', p.dataDir, '--json']),
    );
    const res = await p.fetch('/admin/api-keys', {
      method: 'POST',
      headers: { 'X-API-Key': p.boot.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.id }),
    });
    const other = ((await res.json()) as { key: string }).key;
    const del = await p.fetch(`/v2/ppt-themes/${id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${other}` },
    });
    expect(del.status).toBe(404);
    expect(await del.json()).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    expect(ok(await p.cli(['slides', 'themes', '--type', 'custom'])).stdout).toContain(id);
  }, 60_000);
});
