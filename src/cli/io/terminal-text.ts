import type { ChalkInstance } from 'chalk';

/**
 * Text from the server (names, titles, posts, page text, error messages) reaches a terminal with its
 * control characters shown as escapes (ESC as `\u001b`), never interpreted: a LiveDoc named
 * "\u001b]0;pwned\u0007" cannot retitle the window, move the cursor, hide text or plant a link.
 * Escaped: C0 controls (tab and newline kept where lines are), DEL, C1 controls, and the Unicode
 * bidirectional controls that reorder what is shown.
 *
 * The CLI's own colours must still work, so the chalk instances IO hands out mark the escapes they
 * emit with MARK instead of ESC; output is escaped first, then MARK turns back into ESC. MARK holds a
 * per-process random part that is never printed, so text from the server cannot forge it.
 */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_AND_LAYOUT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Not a secret against this process, only against text that cannot see it: Math.random needs no node:crypto at start-up.
const MARK = `\ufff9${Math.random().toString(36).slice(2, 10)}${Math.random().toString(36).slice(2, 10)}\ufffb`;

const SHORT: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };
const escapeOne = (ch: string) => SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The text with control characters escaped; `lines: false` escapes newlines and tabs too (a table cell, a spinner). */
export function escapeControls(text: string, options: { lines?: boolean } = {}): string {
  return text.replace(options.lines === false ? CONTROLS_AND_LAYOUT : CONTROLS, escapeOne);
}

const unmark = (text: string) => (text.includes(MARK) ? text.split(MARK).join('\u001b') : text);

/** What a terminal is given: every control escaped, then the CLI's own colours restored. */
export function forTerminal(text: string, options: { lines?: boolean } = {}): string {
  return unmark(escapeControls(text, options));
}

/** Output that is not a terminal's (piped) is exact: only the CLI's own colours are restored. */
export const forPipe = unmark;

/**
 * A chalk whose styles mark their escapes (see above). What it styles is escaped before styling, so
 * its output holds no escape but its own; styles nest as chalk's do.
 */
export function markedChalk(chalk: ChalkInstance): ChalkInstance {
  if (chalk.level === 0) return chalk;
  // A stand-in target: chalk caches each style as a fixed property, which a proxy of chalk itself could not replace.
  const wrap = (inner: (...a: unknown[]) => unknown): unknown =>
    new Proxy(() => undefined, {
      get(_t, prop) {
        const value: unknown = Reflect.get(inner, prop);
        return typeof value === 'function' && typeof prop === 'string'
          ? wrap(value as (...a: unknown[]) => unknown)
          : value;
      },
      apply(_t, self, args: unknown[]) {
        const styled = Reflect.apply(
          inner,
          self,
          args.map((a) => forTerminal(String(a))),
        );
        return String(styled).split('\u001b').join(MARK);
      },
    });
  return wrap(chalk) as ChalkInstance;
}
