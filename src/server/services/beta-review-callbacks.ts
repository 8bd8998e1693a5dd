import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { CALLBACK_RETRY } from '../../contract/beta-reviews.js';
import type { AppContext } from '../context.js';
import { safeFetch } from '../net/safe-fetch.js';
import * as repo from '../store/beta-reviews.repo.js';

/**
 * Task notifications (spec 6): when a review task completes, a GET to its pingback_url and a
 * gzip-compressed POST of the results to its postback_url, with $id and $tag replaced (the tag
 * URL-encoded). Both go through the outbound fetch policy (net/), are retried with a doubling
 * wait, and every attempt is written to the delivery log.
 */

/** The URL with $id and $tag filled in; new URL() percent-encodes what else needs it. */
export function callbackUrl(template: string, id: string, tag: string | null | undefined): string {
  return new URL(template.replaceAll('$id', encodeURIComponent(id)).replaceAll('$tag', encodeURIComponent(tag ?? '')))
    .href;
}

interface Callback {
  kind: 'pingback' | 'postback';
  url: string;
  body?: Buffer;
}

async function deliver(
  ctx: AppContext,
  taskId: string,
  cb: Callback,
  signal: AbortSignal,
  retry: { attempts: number; firstDelayMs: number },
): Promise<void> {
  for (let attempt = 1; attempt <= retry.attempts; attempt++) {
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const res = await safeFetch(cb.url, {
        policy: ctx.fetchPolicy,
        method: cb.kind === 'postback' ? 'POST' : 'GET',
        headers: cb.body ? { 'content-type': 'application/json', 'content-encoding': 'gzip' } : {},
        body: cb.body,
        maxBytes: 64 * 1024,
        timeoutMs: 10_000,
        signal,
        maxRedirects: 0,
      });
      statusCode = res.status;
      if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
    } catch (err) {
      if (signal.aborted) throw err;
      error = (err as Error).message;
    }
    await repo.insertDelivery(ctx.db, {
      task_id: taskId,
      kind: cb.kind,
      url: cb.url,
      attempt,
      status_code: statusCode,
      error,
      delivered: error ? 0 : 1,
      at: ctx.now().toISOString(),
    });
    if (!error) return;
    if (attempt < retry.attempts) await sleep(retry.firstDelayMs * 2 ** (attempt - 1), undefined, { signal });
  }
}

/**
 * Sends the task's callbacks that were not delivered yet (a job run again after a crash does not
 * notify twice). `envelope` is what the postback carries: the task_get answer for this task.
 */
export async function sendCallbacks(
  ctx: AppContext,
  task: repo.ReviewTaskRow,
  envelope: unknown,
  signal: AbortSignal,
  retry = CALLBACK_RETRY,
): Promise<void> {
  const data = JSON.parse(task.data) as { pingback_url?: string; postback_url?: string };
  const done = new Set((await repo.deliveriesOf(ctx.db, task.id)).filter((d) => d.delivered === 1).map((d) => d.kind));
  const callbacks: Callback[] = [];
  if (data.pingback_url && !done.has('pingback'))
    callbacks.push({ kind: 'pingback', url: callbackUrl(data.pingback_url, task.id, task.tag) });
  if (data.postback_url && !done.has('postback'))
    callbacks.push({
      kind: 'postback',
      url: callbackUrl(data.postback_url, task.id, task.tag),
      body: gzipSync(JSON.stringify(envelope)),
    });
  await Promise.all(callbacks.map((cb) => deliver(ctx, task.id, cb, signal, retry)));
}
