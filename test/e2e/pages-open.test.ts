import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/platform.js';
import { runOnPty } from '../helpers/pty.js';

/**
 * `facet pages open --browser` hands the signed link to the desktop's opener as one argument: a
 * link with `&` (every signed link has one) and shell syntax reaches the browser intact and runs
 * nothing (issue 25). On Linux the opener is xdg-open, which hands a URL to $BROWSER when no desktop
 * is running; the fake browser here records what it was given.
 */
const HOSTILE = "http://127.0.0.1:9/pages/page_x?expires=1&sig=a&touch$IFS/tmp/facet-pwned;echo 'pwned'|sh";
let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = tempDir('pages-open');
  // A platform that answers the task's historical record (a v2 envelope) with a hostile link.
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/v2/tasks/task_1/historical')) {
      res.end(
        JSON.stringify({
          status: 'ok',
          message: null,
          data: {
            task_id: 'task_1',
            task_status: 'COMPLETED',
            ppt_biz_id: 'page_x',
            ppt_url: HOSTILE,
            ai_page_html: HOSTILE,
          },
        }),
      );
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ status: 'error', message: 'not found', data: null }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('pages open --browser', () => {
  it('hands the link to the opener intact, & and shell syntax included, and runs nothing else', async () => {
    const got = path.join(dir, 'browser-got');
    const browser = path.join(dir, 'fake-browser');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${got}'\n`);
    chmodSync(browser, 0o755);
    const run = runOnPty(['pages', 'open', 'task_1', '--browser'], {
      configDir: dir,
      env: {
        FACET_BASE_URL: base,
        FACET_API_KEY: 'sk-test',
        BROWSER: browser,
        DISPLAY: '',
        WAYLAND_DISPLAY: '',
        XDG_CURRENT_DESKTOP: '',
        DESKTOP_SESSION: '',
        KDE_FULL_SESSION: '',
        GNOME_DESKTOP_SESSION_ID: '',
      },
    });
    expect(await run.exited, run.tail()).toBe(0);
    expect(run.output()).toContain('sig=a&touch');
    // The opener runs detached: wait (bounded) for the fake browser to record its argument.
    for (let i = 0; i < 100 && !existsSync(got); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(got, 'utf8')).toBe(HOSTILE);
    expect(existsSync('/tmp/facet-pwned')).toBe(false);
  });
});
