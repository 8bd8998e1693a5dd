import type { GatewayUsage } from '../gateway-types.js';
import type { Pricing } from './catalog.js';

/** Spec 8: a reported web search costs 0.01 USD. */
export const WEB_SEARCH_USD = 0.01;

/** Tokens the prompt carried, cached or not: what a tier threshold is compared with. */
export function promptTokens(usage: GatewayUsage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/**
 * The cost of one call in USD. inputTokens are the uncached prompt tokens; cache reads and writes are
 * billed at their own rates and only exist when the backend reported them. When the prompt passes a
 * tier's threshold, the whole request is billed at that tier (spec 8's example).
 */
export function priceCall(pricing: Pricing, usage: GatewayUsage): number {
  const prompt = promptTokens(usage);
  let rates: Omit<Pricing, 'tiers'> = pricing;
  for (const tier of [...(pricing.tiers ?? [])].sort((a, b) => a.above_prompt_tokens - b.above_prompt_tokens)) {
    if (prompt > tier.above_prompt_tokens) rates = tier;
  }
  const perMillion =
    usage.inputTokens * rates.input +
    usage.outputTokens * rates.output +
    usage.cacheReadTokens * (rates.cache_read ?? 0) +
    usage.cacheWriteTokens * (rates.cache_write ?? 0);
  // Rounded to a billionth of a USD, the unit the usage store keeps, so sums stay exact.
  return Math.round((perMillion / 1_000_000 + usage.webSearches * WEB_SEARCH_USD) * 1e9) / 1e9;
}

/** One generated image: its prompt's tokens at the input rate, plus the per-image price. */
export function priceImage(pricing: Pricing, inputTokens: number): number {
  const usage = { inputTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, webSearches: 0 };
  return Math.round((priceCall(pricing, usage) + (pricing.per_image ?? 0)) * 1e9) / 1e9;
}
