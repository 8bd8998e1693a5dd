import { writeFile } from 'node:fs/promises';
import { printCreated } from '../render/created.js';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { MAX_MINDMAP_QUERY, MINDMAP_LAYOUTS, type MindmapLayout } from '../../contract/mindmap.js';
import type { Deps } from '../deps.js';
import type { Transport } from '../../client/index.js';
import { readBody } from '../../client/http.js';
import { CliError, usageError } from '../exit-codes.js';

export interface MindmapOptions {
  layout?: MindmapLayout;
  livedoc?: string;
  out?: string;
}

/** "fishbone", "logical-structure" and "LOGICAL_STRUCTURE" all name a layout. */
export function parseLayout(value: string): MindmapLayout {
  const v = value.trim().toUpperCase().replace(/[-\s]/g, '_');
  if (!(MINDMAP_LAYOUTS as readonly string[]).includes(v))
    throw usageError(`--layout must be one of ${MINDMAP_LAYOUTS.join(', ')} (got ${JSON.stringify(value)})`);
  return v as MindmapLayout;
}

function outFormat(out: string): 'svg' | 'png' {
  const ext = path.extname(out).toLowerCase();
  if (ext === '.svg' || ext === '.png') return ext.slice(1) as 'svg' | 'png';
  throw usageError(`--out ${out}: the file must end in .svg or .png (that picks the format)`);
}

/**
 * The PNG comes from the map's own page (its signed URL with format=png): the server draws it with
 * the fonts it measured with, and the CLI stays light (no rasteriser loaded here).
 */
async function fetchPng(transport: Transport, url: string): Promise<Buffer> {
  const u = new URL(url);
  u.searchParams.set('format', 'png');
  const res = await transport.openLink(u.toString());
  const body = await readBody(res.body);
  if (res.statusCode !== 200 || res.headers['content-type'] !== 'image/png')
    throw new CliError(`the mindmap page did not give a PNG (HTTP ${res.statusCode})`);
  return body;
}

export async function run(query: string, opts: MindmapOptions, deps: Deps): Promise<void> {
  const format = opts.out ? outFormat(opts.out) : null;
  // The contract's bound, checked before any request: a usage error, not a server round trip.
  if ([...query].length > MAX_MINDMAP_QUERY)
    throw usageError(`the query is ${[...query].length} characters; the limit is ${MAX_MINDMAP_QUERY}`);
  const api = await deps.api('mindmap');
  const io = deps.io();
  const data = await api.mindmap.create({
    query,
    ...(opts.layout ? { layout: opts.layout } : {}),
    ...(opts.livedoc ? { livedoc_short_id: opts.livedoc } : {}),
  });
  if (opts.out && format) {
    await writeFile(opts.out, format === 'png' ? await fetchPng(api.transport, data.mindmap_url) : data.svg);
    io.info(`wrote ${opts.out}`);
  }
  // Piped, the new resource id alone, as every create verb.
  printCreated(io, data, [data.resource_id], () => {
    io.fields([
      ['resource', data.resource_id],
      ['status', data.status],
      ['LiveDoc', data.livedoc_short_id],
      ['URL', data.mindmap_url],
    ]);
    if (data.message) io.info(data.message);
  });
}

export function register(program: Command, deps: Deps): void {
  program
    .command('mindmap')
    .argument('<query>', 'what to map (at most 2000 characters)')
    .description(
      'Draw a mindmap of a LiveDoc in one of six layouts; prints its resource id, LiveDoc and page URL (--json: the data, svg included)',
    )
    .addOption(
      new Option('--layout <layout>', `${MINDMAP_LAYOUTS.join(', ')} (default MIND_MAP; lower case works)`)
        .choices(MINDMAP_LAYOUTS)
        .argParser(parseLayout),
    )
    .option('--livedoc <id>', 'draw from this LiveDoc and keep the map in it (default: a new LiveDoc)')
    .option('--out <file>', 'also write the drawing to FILE: .svg or .png')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet mindmap "solar power" --livedoc ld_123 --out map.png\n  $ facet mindmap "causes of churn" --layout fishbone --out causes.svg\n  $ facet mindmap "project plan" --layout timeline --json',
    )
    .action((query: string, opts: MindmapOptions) => run(query, opts, deps));
}
