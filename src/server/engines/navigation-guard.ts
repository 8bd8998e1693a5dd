import type { Page } from 'playwright-core';
import { authorityOf, type PolicyProxy } from '../net/policy-proxy.js';

/** How long a page may keep the network busy after `load` before it is read anyway. */
export const SETTLE_MS = 3_000;

/** Why a page held to its proxy cannot be used: a refused navigation, or the proxy's download budget spent. */
export interface PageFailure {
  kind: 'refused' | 'too-large';
  message: string;
}

export interface NavigationGuard {
  /** A refused navigation of the main frame (the policy's message), else the proxy's spent budget, else undefined. */
  failure(): PageFailure | undefined;
  /** Throws `toError(failure)` when there is one. */
  check(toError: (failure: PageFailure) => Error): void;
}

/**
 * Watches every navigation of a page's main frame — the first URL, its redirect hops, and the ones
 * the page starts itself (script `location = …`, `<meta http-equiv=refresh>`) — against the refusals
 * of the page's policy proxy. The proxy answers a refused plain-http navigation with its 403 text,
 * which Chromium then shows as the page: a capture or an extraction must fail with the policy's
 * message instead, just as for a refused redirect. Matching is by authority (`host:port`), the only
 * thing the proxy sees of an https navigation. A page whose downloads passed the proxy's budget
 * fails too: what is on screen then is cut short.
 */
export function guardNavigations(page: Page, proxy: PolicyProxy): NavigationGuard {
  const navigations = new Set<string>();
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigations.add(authorityOf(new URL(r.url())));
  });
  const failure = (): PageFailure | undefined => {
    const refused = proxy.refusals.find((r) => navigations.has(r.authority));
    if (refused) return { kind: 'refused', message: refused.message };
    const over = proxy.overBudget();
    return over ? { kind: 'too-large', message: over } : undefined;
  };
  return {
    failure,
    check(toError) {
      const f = failure();
      if (f) throw toError(f);
    },
  };
}

/**
 * After `load`, lets the page finish what it started: a navigation it set off (a meta refresh fires
 * after load) or requests of its scripts, until the network is quiet or `ms` pass.
 */
export async function settle(page: Page, ms: number): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: Math.max(1, ms) }).catch(() => undefined);
}
