import type { Browser } from 'playwright-core';
import type { FetchPolicy } from '../net/policy.js';
import { startPolicyProxy, type PolicyProxy } from '../net/policy-proxy.js';

/** Flags that let Debian's Chromium run headless in containers and CI, offline. */
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // WebRTC may only use the proxy (TCP), never its own UDP sockets to arbitrary addresses.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * Every connection the browser makes goes through the policy proxy: `<-loopback>` removes
 * Chromium's implicit bypass of localhost and 127.0.0.1, so nothing reaches the network directly.
 */
function proxyArgs(proxy: PolicyProxy): string[] {
  return [`--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>'];
}

/**
 * Runs `work` in a headless Chromium held to the fetch policy (screenshots, pages read in the
 * browser): one browser per job, closed with its proxy whatever happens; an abort closes it at
 * once and is what the caller sees.
 */
export async function withPolicedBrowser<T>(
  options: { executablePath: string; policy: FetchPolicy; signal?: AbortSignal },
  work: (browser: Browser, proxy: PolicyProxy) => Promise<T>,
): Promise<T> {
  const { chromium } = await import('playwright-core');
  const proxy = await startPolicyProxy(options.policy);
  const browser = await chromium
    .launch({
      executablePath: options.executablePath,
      args: [...LAUNCH_ARGS, ...proxyArgs(proxy)],
      headless: true,
      timeout: 30_000,
    })
    .catch(async (err) => {
      await proxy.close();
      throw err;
    });
  const { signal } = options;
  const onAbort = () => void browser.close().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // Aborted while the browser started (a cancel of a task still launching): the listener above
    // came too late to hear it, and the work would run to its own timeouts.
    signal?.throwIfAborted();
    return await work(browser, proxy);
  } catch (err) {
    if (signal?.aborted) throw signal.reason ?? err;
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await browser.close().catch(() => {});
    await proxy.close();
  }
}
