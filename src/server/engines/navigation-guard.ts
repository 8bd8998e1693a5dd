import type { Page } from 'playwright-core';
import { authorityOf, type PolicyProxy } from '../net/policy-proxy.js';

/** How long a page may keep the network busy after `load` before it is read anyway. */
export const SETTLE_MS = 3_000;

export interface NavigationGuard {
  /** The policy's message when any navigation of the main frame was refused, else undefined. */
  refused(): string | undefined;
  /** Throws `toError(message)` when a main-frame navigation was refused. */
  check(toError: (message: string) => Error): void;
}

/**
 * Watches every navigation of a page's main frame — the first URL, its redirect hops, and the ones
 * the page starts itself (script `location = …`, `<meta http-equiv=refresh>`) — against the refusals
 * of the page's policy proxy. The proxy answers a refused plain-http navigation with its 403 text,
 * which Chromium then shows as the page: a capture or an extraction must fail with the policy's
 * message instead, just as for a refused redirect. Matching is by authority (`host:port`), the only
 * thing the proxy sees of an https navigation.
 */
export function guardNavigations(page: Page, proxy: PolicyProxy): NavigationGuard {
  const navigations = new Set<string>();
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigations.add(authorityOf(new URL(r.url())));
  });
  const refused = () => proxy.refusals.find((r) => navigations.has(r.authority))?.message;
  return {
    refused,
    check(toError) {
      const message = refused();
      if (message) throw toError(message);
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
