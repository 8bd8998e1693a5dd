import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { parseExposition } from '../../helpers/prom-text.js';

/**
 * Issue 39: the Grafana dashboard and the alert rules in docs/ use only metrics the server exposes
 * (a renamed metric would leave an empty panel or an alert that never fires); the rules pass
 * `promtool check rules` where promtool is installed.
 */
const DOCS = path.join(import.meta.dirname, '../../../docs');
let server: RunningServer | undefined;
let families: Set<string>;

beforeAll(async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
  const text = await (await fetch(`${server.url}/metrics`)).text();
  families = new Set(parseExposition(text).types.keys());
  // PostgreSQL only: a SQLite server has no connection pool.
  for (const name of ['facet_db_pool_connections', 'facet_db_pool_waiting_requests', 'facet_db_pool_errors_total'])
    families.add(name);
});
afterAll(() => server?.close());

/** Metric names in a PromQL expression: identifiers that start with facet_, process_ or nodejs_. */
function metricsIn(expr: string): string[] {
  const names = expr.match(/\b(?:facet|process|nodejs)_[a-z0-9_]+/g) ?? [];
  return names.map((n) => n.replace(/_(bucket|sum|count)$/, ''));
}

it('the dashboard and the alert rules name only metrics /metrics exposes', () => {
  const dashboard = JSON.parse(readFileSync(path.join(DOCS, 'grafana-dashboard.json'), 'utf8')) as {
    panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
  };
  expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
  const used = new Set<string>();
  for (const panel of dashboard.panels) for (const t of panel.targets) for (const m of metricsIn(t.expr)) used.add(m);
  const rules = readFileSync(path.join(DOCS, 'alerts.yml'), 'utf8');
  for (const line of rules.split('\n')) for (const m of metricsIn(line)) used.add(m);
  expect([...used].filter((m) => !families.has(m))).toEqual([]);
  expect(used.size).toBeGreaterThan(15);
});

const promtool = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).stdout.trim();
if (!promtool) console.log('promtool check rules skipped: promtool is not installed (Debian package prometheus)');

it.skipIf(!promtool)(`docs/alerts.yml passes promtool check rules${promtool ? '' : ' — skipped: no promtool'}`, () => {
  const r = spawnSync(promtool, ['check', 'rules', path.join(DOCS, 'alerts.yml')], { encoding: 'utf8' });
  expect(r.stdout + r.stderr).toMatch(/SUCCESS: \d+ rules found/);
  expect(r.status).toBe(0);
});
