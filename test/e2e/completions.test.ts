import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

const FILES = { bash: 'facet.bash', zsh: '_facet', fish: 'facet.fish', powershell: 'facet.ps1' } as const;

/** What the bash script offers for the words typed so far (the last one is the word being completed). */
async function bashComplete(words: string[], env: Record<string, string> = {}): Promise<string[]> {
  const script = path.join(ROOT, 'completions', FILES.bash);
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const { stdout } = await execa(
    'bash',
    [
      '-c',
      `source ${script}; COMP_WORDS=(facet ${quoted}); COMP_CWORD=${words.length}; _facet; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { env, timeout: 20_000 },
  );
  return stdout.split('\n').filter(Boolean);
}

describe('shell completions', () => {
  for (const [shell, file] of Object.entries(FILES)) {
    it(`completions/${file} matches the command tree (run \`npm run completions\` when this fails)`, async () => {
      const r = await runCli(tempDir('cfg'), ['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(readFileSync(path.join(ROOT, 'completions', file), 'utf8')).toBe(r.stdout);
    });
  }

  it('the bash script completes nested verbs', async () => {
    const script = path.join(ROOT, 'completions', FILES.bash);
    const { stdout } = await execa('bash', [
      '-c',
      `source ${script}; COMP_WORDS=(facet --json admin keys fr); COMP_CWORD=4; _facet; echo "\${COMPREPLY[@]}"`,
    ]);
    expect(stdout.trim()).toBe('freeze');
  });

  it('completes the values of options and arguments that take one of a fixed set', async () => {
    expect(await bashComplete(['mindmap', '--layout', ''])).toEqual([
      'MIND_MAP',
      'LOGICAL_STRUCTURE',
      'ORGANIZATION_STRUCTURE',
      'CATALOG_ORGANIZATION',
      'TIMELINE',
      'FISHBONE',
    ]);
    expect(await bashComplete(['tasks', 'create', '--kind', 's'])).toEqual(['screenshot']);
    expect(await bashComplete(['extract', 'https://example.com', '--format', ''])).toEqual([
      'html',
      'text',
      'markdown',
    ]);
    expect(await bashComplete(['--json', 'config', 'get', 'ba'])).toEqual(['base_url']);
    // After the value, the command's words again.
    expect(await bashComplete(['mindmap', '--layout', 'TIMELINE', '--o'])).toEqual(['--out']);
  });

  it('the PowerShell script registers a native completer over the same table', () => {
    const ps = readFileSync(path.join(ROOT, 'completions', FILES.powershell), 'utf8');
    expect(ps).toContain('Register-ArgumentCompleter -Native -CommandName facet');
    expect(ps).toContain(`'mindmap --layout' = 'MIND_MAP LOGICAL_STRUCTURE`);
    expect(ps).toContain(`'slides create --theme' = '@themes'`);
  });
});

describe('ids completed from the live profile', () => {
  let p: Platform;
  afterAll(() => p?.cleanup());

  /** A `facet` on PATH for the script to call, with the platform's profile. */
  function shellEnv(platform: Platform): Record<string, string> {
    const bin = tempDir('bin');
    writeFileSync(path.join(bin, 'facet'), `#!/bin/sh\nexec ${process.execPath} ${BIN} "$@"\n`);
    chmodSync(path.join(bin, 'facet'), 0o755);
    return { PATH: `${bin}:${process.env.PATH}`, FACET_CONFIG_DIR: platform.configDir, HOME: tempDir('home') };
  }

  it('LiveDoc ids, theme ids and key ids come from the server; a server that does not answer completes nothing, quickly', async () => {
    p = await startPlatform();
    const made = JSON.parse((await p.cli(['livedocs', 'create', 'Completion test', '--json'])).stdout);
    const env = shellEnv(p);
    expect(await bashComplete(['livedocs', 'get', ''], env)).toContain(made.short_id);
    expect(await bashComplete(['ask', 'what?', '--livedoc', ''], env)).toContain(made.short_id);
    const themes = await bashComplete(['slides', 'create', 'q', '--theme', ''], env);
    expect(themes.length).toBeGreaterThan(3);
    const keys = JSON.parse((await p.cli(['keys', 'list', '--json'])).stdout) as Array<{ id: string }>;
    expect(await bashComplete(['keys', 'delete', ''], env)).toEqual(expect.arrayContaining(keys.map((k) => k.id)));
    // Nothing listens on the profile's port: no ids, no error text, and Tab comes back at once.
    await p.stop();
    const started = Date.now();
    expect(await bashComplete(['livedocs', 'get', ''], env)).toEqual(['--help']);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);
});

describe('facet completion install', () => {
  it("writes the shell's script where the shell looks, creating the directory (shell from $SHELL)", async () => {
    const home = tempDir('home');
    const r = await runCli(tempDir('cfg'), ['completion', 'install', '--json'], {
      env: { HOME: home, SHELL: '/usr/bin/bash', XDG_DATA_HOME: undefined },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const file = path.join(home, '.local/share/bash-completion/completions/facet');
    expect(JSON.parse(r.stdout)).toEqual({ shell: 'bash', file });
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(path.join(ROOT, 'completions', FILES.bash), 'utf8'));
  });

  it('--shell picks the shell; fish and zsh go under XDG dirs', async () => {
    const config = tempDir('xdg-config');
    const data = tempDir('xdg-data');
    const env = { XDG_CONFIG_HOME: config, XDG_DATA_HOME: data, SHELL: '/bin/sh' };
    const fish = await runCli(tempDir('cfg'), ['completion', 'install', '--shell', 'fish'], { env });
    expect(fish.exitCode, fish.stderr).toBe(0);
    expect(readFileSync(path.join(config, 'fish/completions/facet.fish'), 'utf8')).toBe(
      readFileSync(path.join(ROOT, 'completions', FILES.fish), 'utf8'),
    );
    const zsh = await runCli(tempDir('cfg'), ['completion', 'install', '--shell', 'zsh'], { env });
    expect(zsh.exitCode, zsh.stderr).toBe(0);
    expect(readFileSync(path.join(data, 'zsh/site-functions/_facet'), 'utf8')).toContain('#compdef facet');
    expect(zsh.stderr).toMatch(/fpath=\(/);
  });

  it('an unknown $SHELL without --shell is a usage error', async () => {
    const r = await runCli(tempDir('cfg'), ['completion', 'install'], {
      env: { SHELL: '/bin/sh', HOME: tempDir('home') },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--shell/);
  });
});
