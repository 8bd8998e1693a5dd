import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { documentedNginxConf, nginxBinary } from '../../helpers/nginx-balancer.js';

/**
 * Issue 39: docs/deploy.md's nginx.conf passes `nginx -t` as written. The one thing changed is
 * where the TLS certificate and key are, which an operator has and a test machine has not: a
 * self-signed pair is made for the check. Skipped, saying why, where nginx or openssl is missing.
 */
function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}

const nginx = nginxBinary();
const openssl = which('openssl');
const why = !nginx ? 'nginx is not installed (apt-get install nginx)' : !openssl ? 'openssl is not installed' : '';
if (why) console.log(`nginx -t of docs/deploy.md skipped: ${why}`);

it.skipIf(Boolean(why))(`docs/deploy.md's nginx.conf passes nginx -t${why ? ` — skipped: ${why}` : ''}`, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-nginx-'));
  try {
    const cert = path.join(dir, 'fullchain.pem');
    const key = path.join(dir, 'privkey.pem');
    execFileSync(
      openssl!,
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=api.example.com',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'pipe' },
    );
    const conf = documentedNginxConf()
      .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${cert};`)
      .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${key};`);
    expect(conf).not.toMatch(/\/var\/cache\/nginx/);
    const file = path.join(dir, 'nginx.conf');
    writeFileSync(file, conf);
    const r = spawnSync(nginx!, ['-t', '-c', file], { encoding: 'utf8' });
    expect(r.stderr, r.stderr).toMatch(/test is successful/);
    expect(r.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
