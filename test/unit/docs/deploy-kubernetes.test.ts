import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Code } from 'mdast';
import { visit } from 'unist-util-visit';
import { parse } from 'yaml';
import { expect, it } from 'vitest';

/**
 * Issue 47: docs/deploy.md's Kubernetes container as operators run it. A startup probe generous
 * enough for a start under load (103-119 s seen), so liveness never kills an instance still
 * starting; readiness that does not flap on one slow probe; liveness on the listener that answers
 * until exit (the metrics port, test/unit/metrics/liveness-drain.test.ts), reachable by the kubelet.
 */
interface Probe {
  httpGet: { path: string; port: string | number };
  periodSeconds: number;
  timeoutSeconds?: number;
  failureThreshold: number;
}

function manifest() {
  const blocks: string[] = [];
  visit(
    fromMarkdown(readFileSync(path.join(import.meta.dirname, '../../../docs/deploy.md'), 'utf8')),
    'code',
    (n: Code) => {
      if (n.lang === 'yaml' && /containers:/.test(n.value)) blocks.push(n.value);
    },
  );
  expect(blocks).toHaveLength(1);
  return parse(blocks[0]) as {
    spec: {
      terminationGracePeriodSeconds: number;
      containers: Array<{
        args: string[];
        ports: Array<{ name: string; containerPort: number }>;
        startupProbe: Probe;
        readinessProbe: Probe;
        livenessProbe: Probe;
      }>;
    };
  };
}

it('has a generous startup probe, readiness that does not flap, and liveness on the listener that outlives the drain', () => {
  const { spec } = manifest();
  const c = spec.containers[0];
  const arg = (name: string) => c.args[c.args.indexOf(name) + 1];
  const portOf = (p: string | number) => (typeof p === 'number' ? p : c.ports.find((x) => x.name === p)!.containerPort);

  expect(c.startupProbe.httpGet.path).toBe('/healthz');
  expect(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold).toBeGreaterThanOrEqual(240);
  expect(c.readinessProbe.httpGet.path).toBe('/readyz');
  expect(c.readinessProbe.failureThreshold).toBeGreaterThan(1);
  // /readyz's checks are bounded to 2 s (readiness.ts): the probe waits longer than that.
  expect(c.readinessProbe.timeoutSeconds).toBeGreaterThan(2);
  expect(portOf(c.readinessProbe.httpGet.port)).toBe(8787);

  expect(c.livenessProbe.httpGet.path).toBe('/healthz');
  expect(portOf(c.livenessProbe.httpGet.port)).toBe(Number(arg('--metrics-port')));
  expect(arg('--metrics-host')).toBe('0.0.0.0');
  // The drain (timeout plus a second) fits in the grace period.
  expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(Number(arg('--drain-timeout')) + 1);
});
