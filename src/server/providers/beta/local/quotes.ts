import { rng, seedOf } from '../seeded.js';
import type { Company } from './companies.js';

/**
 * A company's daily price history, as the insider trades see it: the close is the trailing twelve
 * months' earnings per share (of the statements published by that day) times a P/E that drifts
 * slowly around the company's own level, so price and earnings agree; each day has an open, a high
 * and a low around it. Not served by any endpoint; trades are priced inside a day's range.
 */

export interface DailyQuote {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  /** The trailing EPS and P/E the close was made from. */
  ttm_eps: number;
  pe: number;
}

/** The company's P/E on a day: its own level (12-35) moving up to about a third either way over months. */
function peOn(c: Company, day: number): number {
  const r = rng(seedOf('pe', c.ticker));
  const level = 12 + 23 * r();
  const phase1 = 2 * Math.PI * r();
  const phase2 = 2 * Math.PI * r();
  return level * Math.exp(0.18 * Math.sin(phase1 + day / 120) + 0.07 * Math.sin(phase2 + day / 23));
}

const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * The quote of a day (ms since the epoch, any time in the day) given the trailing EPS then. The
 * caller supplies the EPS (financials.ts knows the statements), keeping this file free of them.
 */
export function quoteOf(c: Company, dayMs: number, ttmEps: number): DailyQuote {
  const day = Math.floor(dayMs / 86_400_000);
  const r = rng(seedOf('quote', c.ticker, day));
  const pe = peOn(c, day);
  const close = cents(Math.max(1, ttmEps * pe * (1 + 0.01 * (r() - 0.5))));
  const open = cents(close * (1 + 0.012 * (r() - 0.5)));
  const high = cents(Math.max(open, close) * (1 + 0.01 * r()));
  const low = cents(Math.min(open, close) * (1 - 0.01 * r()));
  return { date: new Date(day * 86_400_000).toISOString().slice(0, 10), open, high, low, close, ttm_eps: ttmEps, pe };
}
