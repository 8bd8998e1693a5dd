import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers/platform.js';

/** Rules every command keeps: -q prints nothing but the data; conflicting flags are a usage error. */
describe('-q', () => {
  it('facet serve -q says where it listens and nothing else, not even on its way out', async () => {
    const proc = execa(
      'node',
      // --drain-delay 0: execa ends a process still running 5 s after its SIGTERM with SIGKILL.
      [
        BIN,
        'serve',
        '-q',
        '--port',
        '0',
        '--data-dir',
        tempDir('quiet-data'),
        '--log-level',
        'warn',
        '--drain-delay',
        '0',
      ],
      {
        env: { FACET_CONFIG_DIR: tempDir('quiet-cfg'), NO_COLOR: '1', CI: 'true' },
        reject: false,
        timeout: 30_000,
      },
    );
    let stderr = '';
    await new Promise<void>((resolve) =>
      proc.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/listening on/.test(stderr)) resolve();
      }),
    );
    proc.kill('SIGTERM');
    const r = await proc;
    expect(r.exitCode, `ended by ${r.signal ?? 'no signal'}; its stderr:\n${stderr}`).toBe(0);
    // stdout is not a terminal: JSON mode, where the one line is a JSON log line.
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      msg: expect.stringMatching(/^facet serve: listening on http:\/\/127\.0\.0\.1:\d+$/),
    });
  });
});

describe('conflicting flags', () => {
  // Refused before any request is made: no platform needed, nothing changed anywhere.
  const cases: Array<[string, string[], RegExp]> = [
    [
      'projects update --description with --clear-description',
      ['projects', 'update', 'prj_0123456789abcdef', '--description', 'x', '--clear-description'],
      /--clear-description.*cannot be used with.*--description/,
    ],
    [
      'resources download --url-only with --output',
      ['livedocs', 'resources', 'download', 'ld_x', 'res_y', '--url-only', '--output', 'f'],
      /--url-only.*cannot be used with.*--output/,
    ],
    [
      'login --local with --api-key-stdin',
      ['login', '--local', '--api-key-stdin'],
      /--local.*cannot be used with.*--api-key-stdin/,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(`${name} is a usage error (exit 2)`, async () => {
      const r = await runCli(tempDir('cfg'), args, {
        env: { FACET_BASE_URL: 'http://127.0.0.1:9', FACET_API_KEY: 'fk_unused' },
      });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
    });
  }
});
