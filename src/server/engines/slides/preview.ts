import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where LibreOffice is looked for: FACET_SOFFICE, then Debian's path, then PATH. */
export function sofficePath(): string | null {
  const given = process.env.FACET_SOFFICE;
  if (given !== undefined) return given && existsSync(given) ? given : null;
  for (const p of ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice', '/usr/local/bin/soffice'])
    if (existsSync(p)) return p;
  return null;
}

export function pdftoppmPath(): string | null {
  for (const p of ['/usr/bin/pdftoppm', '/usr/local/bin/pdftoppm']) if (existsSync(p)) return p;
  return null;
}

/** Preview rendering failed or cannot run; the task goes on without previews and logs why. */
export class PreviewUnavailable extends Error {}

function run(
  cmd: string,
  args: string[],
  options: { timeoutMs: number; signal?: AbortSignal; cwd?: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    // Its own process group, so a time-out or an abort ends LibreOffice's helper processes too.
    const child = spawn(cmd, args, { cwd: options.cwd, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      kill();
      reject(
        new PreviewUnavailable(
          `${path.basename(cmd)} took longer than ${Math.round(options.timeoutMs / 1000)} s and was stopped`,
        ),
      );
    }, options.timeoutMs);
    const onAbort = () => {
      kill();
      reject(options.signal!.reason ?? new Error('aborted'));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new PreviewUnavailable(`${path.basename(cmd)} could not start: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (code === 0) resolve();
      else reject(new PreviewUnavailable(`${path.basename(cmd)} exited with code ${code}: ${stderr.trim()}`));
    });
  });
}

/**
 * A PDF of a deck, converted by LibreOffice headless with a profile of its own (two conversions
 * never share, or lock, one profile), within a time limit, killed on abort.
 */
export async function deckToPdf(
  pptx: Buffer,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Buffer> {
  const soffice = sofficePath();
  if (!soffice)
    throw new PreviewUnavailable(
      'LibreOffice (soffice) is not installed; install libreoffice-impress for slide previews',
    );
  const dir = await mkdtemp(path.join(os.tmpdir(), 'facet-deck-'));
  try {
    await writeFile(path.join(dir, 'deck.pptx'), pptx);
    const profile = pathToFileURL(path.join(dir, 'profile')).href;
    await run(
      soffice,
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--convert-to',
        'pdf',
        '--outdir',
        dir,
        path.join(dir, 'deck.pptx'),
      ],
      {
        timeoutMs: options.timeoutMs ?? 120_000,
        signal: options.signal,
        cwd: dir,
      },
    );
    const pdf = path.join(dir, 'deck.pdf');
    if (!existsSync(pdf)) throw new PreviewUnavailable('LibreOffice finished without writing a PDF');
    return await readFile(pdf);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One PNG per page of a PDF (pdftoppm), `width` pixels wide, in page order. */
export async function pdfToPngs(
  pdf: Buffer,
  options: { width?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Buffer[]> {
  const tool = pdftoppmPath();
  if (!tool) throw new PreviewUnavailable('pdftoppm is not installed; install poppler-utils for slide previews');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'facet-pages-'));
  try {
    await writeFile(path.join(dir, 'deck.pdf'), pdf);
    await run(
      tool,
      [
        '-png',
        '-scale-to-x',
        String(options.width ?? 1280),
        '-scale-to-y',
        '-1',
        path.join(dir, 'deck.pdf'),
        path.join(dir, 'slide'),
      ],
      {
        timeoutMs: options.timeoutMs ?? 60_000,
        signal: options.signal,
      },
    );
    const names = (await readdir(dir))
      .filter((n) => /^slide-\d+\.png$/.test(n))
      .sort((a, b) => Number(/(\d+)/.exec(a)![1]) - Number(/(\d+)/.exec(b)![1]));
    return await Promise.all(names.map((n) => readFile(path.join(dir, n))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** PNG previews of every slide: LibreOffice → PDF → pdftoppm. */
export async function renderPreviews(
  pptx: Buffer,
  options: { timeoutMs?: number; signal?: AbortSignal; width?: number } = {},
): Promise<Buffer[]> {
  return pdfToPngs(await deckToPdf(pptx, options), options);
}
