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
