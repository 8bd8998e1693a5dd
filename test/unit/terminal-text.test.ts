import { Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { IO } from '../../src/cli/io/output.js';
import { escapeControls, forPipe, forTerminal, markedChalk } from '../../src/cli/io/terminal-text.js';

const HOSTILE = '\u001b]0;pwned\u0007';

describe('text for a terminal', () => {
  it('shows control characters, ANSI and OSC escapes as visible escapes', () => {
    expect(forTerminal(HOSTILE)).toBe('\\u001b]0;pwned\\u0007');
    expect(forTerminal('\u001b[2J\u001b[31mred\u009b1m\u007f')).toBe('\\u001b[2J\\u001b[31mred\\u009b1m\\u007f');
    expect(forTerminal('over\rwrite\bx')).toBe('over\\rwrite\\u0008x');
    // Bidirectional overrides that would reorder what is shown.
    expect(forTerminal('abc\u202edcba\u2066')).toBe('abc\\u202edcba\\u2066');
  });

  it('keeps newlines and tabs of text, and escapes them in a cell', () => {
    expect(forTerminal('a\tb\nc')).toBe('a\tb\nc');
    expect(escapeControls('a\tb\nc', { lines: false })).toBe('a\\tb\\nc');
    expect(forTerminal('日本語 😀 café')).toBe('日本語 😀 café');
  });

  it("keeps the CLI's own colours, and only those", () => {
    const c = markedChalk(new Chalk({ level: 1 }));
    const plain = new Chalk({ level: 1 });
    expect(forTerminal(c.red('failed'))).toBe(plain.red('failed'));
    expect(forTerminal(`${c.bold('title')} ${HOSTILE}`)).toBe(`${plain.bold('title')} \\u001b]0;pwned\\u0007`);
    // Server text inside a style is escaped too, and styles nest.
    expect(forTerminal(c.bold(`1. ${HOSTILE}`))).toBe(plain.bold('1. \\u001b]0;pwned\\u0007'));
    expect(forTerminal(c.bold(`a ${c.dim('b')} c`))).toBe(plain.bold(`a ${plain.dim('b')} c`));
    expect(forPipe(c.green('ok'))).toBe(plain.green('ok'));
  });

  it('a chalk without colour is chalk itself', () => {
    const none = new Chalk({ level: 0 });
    expect(markedChalk(none)).toBe(none);
    expect(markedChalk(none).red('x')).toBe('x');
  });
});

describe('IO on a terminal', () => {
  const sink = (isTTY: boolean) => {
    const chunks: string[] = [];
    return {
      chunks,
      stream: Object.assign(new Writable({ write: (c, _e, done) => (chunks.push(String(c)), done()) }), { isTTY }),
    };
  };

  it('escapes streamed text chunk by chunk, an escape split across chunks included; piped text is exact', () => {
    const out = sink(true);
    const err = sink(true);
    const io = new IO({ stdout: out.stream, stderr: err.stream, json: false, quiet: false, color: true });
    io.write('answer: \u001b');
    io.write(']0;pwned\u0007 done\n');
    expect(out.chunks.join('')).toBe('answer: \\u001b]0;pwned\\u0007 done\n');
    io.error(`the server said ${HOSTILE}`);
    expect(err.chunks.join('')).toBe(
      `${new Chalk({ level: 1 }).red('error: ')}the server said \\u001b]0;pwned\\u0007\n`,
    );
    const piped = sink(false);
    new IO({ stdout: piped.stream, stderr: err.stream, json: false, quiet: false, color: true }).write(
      `exact ${HOSTILE}\n`,
    );
    expect(piped.chunks.join('')).toBe(`exact ${HOSTILE}\n`);
  });
});
