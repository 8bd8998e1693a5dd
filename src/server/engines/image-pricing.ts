/**
 * Nominal list prices of the local image engines, in USD, so usage reports show a cost per task
 * the way an upstream service would bill it. The pricing catalog of the model gateway replaces
 * these when it lands.
 */
export const IMAGE_PRICES: Record<string, { perImage: number; perMillionInputTokens: number }> = {
  'facet-illustration-1': { perImage: 0.002, perMillionInputTokens: 0.1 },
  'facet-screenshot-1': { perImage: 0.001, perMillionInputTokens: 0 },
};

export function imageCost(model: string, images: number, inputTokens: number): number {
  const p = IMAGE_PRICES[model];
  if (!p) return 0;
  return images * p.perImage + (inputTokens * p.perMillionInputTokens) / 1_000_000;
}
