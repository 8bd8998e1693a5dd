import type { MeterScope, ModelGateway } from '../gateway-types.js';
import type { PagePlan } from './plan.js';
import { planPage } from './planner.js';
import { renderPage } from './render.js';
import type { PagePassage } from './text.js';

export type { PagePlan } from './plan.js';
export type { PagePassage } from './text.js';
export { renderPage } from './render.js';

export interface LandingPageRequest {
  query: string;
  passages: PagePassage[];
  livedocId: string;
  gateway: ModelGateway;
  scope: MeterScope;
  model?: string;
  now: Date;
  signal?: AbortSignal;
  log?: (line: string) => Promise<void> | void;
}

export interface LandingPage {
  html: string;
  plan: PagePlan;
  /** Milliseconds spent planning (model calls) and rendering. */
  timings: { planMs: number; renderMs: number };
}

/**
 * The landing-page engine: plan through the model gateway, then draw one self-contained HTML file.
 * Rendering is string building over a bounded plan (a few hundred microseconds), so it stays on
 * the event loop; the model calls are I/O.
 */
export async function generateLandingPage(req: LandingPageRequest): Promise<LandingPage> {
  const t0 = performance.now();
  const plan = await planPage(req);
  const t1 = performance.now();
  const html = renderPage(plan, { livedocId: req.livedocId, generatedAt: req.now.toISOString() });
  return { html, plan, timings: { planMs: t1 - t0, renderMs: performance.now() - t1 } };
}
