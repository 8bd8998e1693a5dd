import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from '../helpers/platform.js';

const FILES = { bash: 'facet.bash', zsh: '_facet', fish: 'facet.fish' } as const;

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
    const { stdout } = await execa('bash', ['-c', `source ${script}; COMP_WORDS=(facet --json admin keys fr); COMP_CWORD=4; _facet; echo "\${COMPREPLY[@]}"`]);
    expect(stdout.trim()).toBe('freeze');
  });
});

describe('facet completion install', () => {
  it("writes the shell's script where the shell looks, creating the directory (shell from $SHELL)", async () => {
    const home = tempDir('home');
    const r = await runCli(tempDir('cfg'), ['completion', 'install', '--json'], { env: { HOME: home, SHELL: '/usr/bin/bash', XDG_DATA_HOME: undefined } });
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
    expect(readFileSync(path.join(config, 'fish/completions/facet.fish'), 'utf8')).toBe(readFileSync(path.join(ROOT, 'completions', FILES.fish), 'utf8'));
    const zsh = await runCli(tempDir('cfg'), ['completion', 'install', '--shell', 'zsh'], { env });
    expect(zsh.exitCode, zsh.stderr).toBe(0);
    expect(readFileSync(path.join(data, 'zsh/site-functions/_facet'), 'utf8')).toContain('#compdef facet');
    expect(zsh.stderr).toMatch(/fpath=\(/);
  });

  it('an unknown $SHELL without --shell is a usage error', async () => {
    const r = await runCli(tempDir('cfg'), ['completion', 'install'], { env: { SHELL: '/bin/sh', HOME: tempDir('home') } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--shell/);
  });
});
