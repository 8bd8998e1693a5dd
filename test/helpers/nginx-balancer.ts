import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Code } from 'mdast';
import { visit } from 'unist-util-visit';
import type { RetryingProxy } from './retrying-proxy.js';

const DEPLOY = path.join(import.meta.dirname, '../../docs/deploy.md');

/** The nginx binary, or undefined where it is not installed. */
export function nginxBinary(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined;
}

/** The nginx.conf of docs/deploy.md, as written there. */
export function documentedNginxConf(): string {
  const blocks: string[] = [];
  visit(fromMarkdown(readFileSync(DEPLOY, 'utf8')), 'code', (node: Code) => {
    if (node.lang === 'nginx') blocks.push(node.value);
  });
  if (blocks.length !== 1) throw new Error(`docs/deploy.md has ${blocks.length} nginx blocks, not one`);
  return blocks[0];
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/**
 * docs/deploy.md's nginx.conf run as the balancer, with what a test machine must change: plain
 * HTTP on a loopback port instead of TLS on 443, its files in a temporary folder, and the
 * instances' addresses in the upstream block. Every proxy directive is the documented one.
 * `stats.retried.next_upstream` counts requests nginx sent to more than one instance.
 */
export async function nginxBalancer(upstreams: string[]): Promise<RetryingProxy> {
  const bin = nginxBinary();
  if (!bin) throw new Error('nginx is not installed');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-nginx-run-'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  const log = path.join(dir, 'access.log');
  const documented = documentedNginxConf();
  // Each instance takes the documented server line's parameters (max_fails, fail_timeout), as written.
  const params = /upstream facet \{[^}]*?\n\s*server \S+([^;\n]*);/.exec(documented)?.[1] ?? '';
  const write = (urls: string[]) => {
    const servers = urls.map((u) => `        server ${new URL(u).host}${params};`).join('\n');
    let text = documented
      .replace(/^pid .*;$/m, `pid ${dir}/nginx.pid;`)
      .replace(/^error_log .*;$/m, `error_log ${dir}/error.log warn;`)
      .replace(
        /^(\s*)access_log .*;$/m,
        `$1log_format upstreams '$status $upstream_status';\n$1access_log ${log} upstreams;\n$1client_body_temp_path ${dir}/body;\n$1proxy_temp_path ${dir}/proxy;`,
      )
      .replace(/(upstream facet \{\n\s*least_conn;\n)(?:\s*server .*;\n)+/, `$1${servers}\n`)
      .replace(/listen 443 ssl;/, `listen 127.0.0.1:${port};`)
      .replace(/^\s*ssl_certificate(_key)? .*;\n/gm, '');
    // The master runs as root here; its workers as root too, so they may write the temp folders.
    if (process.getuid?.() === 0) text = `user root;\n${text}`;
    writeFileSync(conf, text);
  };
  write(upstreams);
  const proc: ChildProcess = spawn(bin, ['-p', dir, '-c', conf, '-g', 'daemon off;'], { stdio: 'pipe' });
  let output = '';
  proc.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (up) break;
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`nginx did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const stats = {
    answered: 0,
    retried: {} as Record<string, number>,
  };
  const count = () => {
    const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    stats.answered = lines.length;
    // `$upstream_status` lists one status per instance tried: "502, 200" was sent again.
    stats.retried = { next_upstream: lines.filter((l) => l.includes(',')).length };
  };
  return {
    url: `http://127.0.0.1:${port}`,
    get stats() {
      count();
      return stats;
    },
    errors() {
      const file = path.join(dir, 'error.log');
      return existsSync(file)
        ? readFileSync(file, 'utf8')
            .split('\n')
            .filter((l) => /\[(error|crit)\]/.test(l))
            .join('\n')
        : '';
    },
    async close() {
      count();
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGQUIT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
