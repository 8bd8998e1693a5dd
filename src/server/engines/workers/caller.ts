import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who the work being done is for (an API key id, else a user id), carried through a request's
 * async calls: every CPU job a request submits, however deep (a token count, a schema check, an
 * upload's parsing), queues under its caller without each function passing it along.
 */
const callers = new AsyncLocalStorage<string>();

/** Runs `fn` (and everything it starts) on behalf of `owner`. */
export function asCaller<T>(owner: string, fn: () => T): T {
  return callers.run(owner, fn);
}

/** The caller the current work is for, if any. */
export function currentCaller(): string | undefined {
  return callers.getStore();
}
