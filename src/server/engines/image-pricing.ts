import type { ModelDirectory } from './gateway/directory.js';
import { priceImage } from './gateway/pricing.js';

/**
 * What one image of an image task costs. Illustration models are priced by the model catalog,
 * like every model (so `--catalog` changes them too); the screenshot engine is not a model of the
 * catalog and has its nominal price here.
 */
const SCREENSHOT_USD = 0.001;

export async function imageCost(
  directory: ModelDirectory | undefined,
  model: string,
  inputTokens: number,
): Promise<number> {
  if (model === 'facet-screenshot-1') return SCREENSHOT_USD;
  const pricing = (await directory?.get(model))?.pricing;
  return pricing ? priceImage(pricing, inputTokens) : 0;
}
