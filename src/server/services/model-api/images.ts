import type { z } from 'zod';
import type { ImageGeneration, ImageGenerationRequest } from '../../../contract/model-api-media.js';
import type { MeterScope } from '../../engines/gateway-types.js';
import type { ModelDirectory } from '../../engines/gateway/directory.js';
import { priceImage } from '../../engines/gateway/pricing.js';
import { countTokens } from '../../engines/gateway/tokenizer.js';
import { compose } from '../../engines/illustration/compose.js';
import { renderPng } from '../../engines/illustration/render.js';
import { HttpError } from '../../errors.js';
import { meter } from '../../store/meter.js';
import type { Ctx } from '../users.service.js';
import { nowSeconds } from './content.js';

const DEFAULT_MODEL = 'facet-illustration-1';

/** The contract's IMAGE_SIZE has bounded each side (64-2048) already. */
function parseSize(size: string | undefined): [number, number] {
  const [w, h] = (size ?? '1024x1024').split('x').map(Number);
  return [w, h];
}

/** OpenAI Images shape, drawn by the local illustration engine and metered like every model call. */
export async function generateImages(
  ctx: Ctx,
  directory: ModelDirectory,
  body: z.infer<typeof ImageGenerationRequest>,
  scope: MeterScope,
): Promise<z.infer<typeof ImageGeneration>> {
  const id = body.model ?? DEFAULT_MODEL;
  const model = await directory.get(id);
  if (!model?.offered)
    throw new HttpError('model_not_found', `The model ${id} does not exist or is not available`, { status: 404 });
  if (model.model_kind !== 'image_generation' || model.engine !== 'illustration') {
    throw new HttpError(
      'model_not_supported',
      `Model ${id} cannot generate images here; use an image_generation model such as ${DEFAULT_MODEL}`,
      { status: 400 },
    );
  }
  if (body.response_format === 'url') {
    throw new HttpError(
      'invalid_parameter',
      'The local illustration engine returns images inline: use response_format b64_json',
      { status: 400, extra: { param: 'response_format' } },
    );
  }
  const [width, height] = parseSize(body.size);
  const n = body.n ?? 1;
  // The image task service's illustration engine: the same prompt gives the same picture on both.
  const data = [];
  for (let index = 0; index < n; index++) {
    const { png } = await renderPng(
      compose({ prompt: body.prompt, width, height, index, keywords: [] }).svg,
      undefined,
      scope.apiKeyId ?? scope.userId,
    );
    data.push({ b64_json: png.toString('base64'), revised_prompt: body.prompt });
  }
  const inputTokens = await countTokens(body.prompt);
  const cost = priceImage(model.pricing!, inputTokens) * n;
  await meter(ctx, {
    apiKeyId: scope.apiKeyId,
    userId: scope.userId,
    model: model.id,
    operation: scope.operation,
    inputTokens,
    costUsd: cost,
  });
  return {
    created: nowSeconds(ctx.now()),
    data,
    usage: { input_tokens: inputTokens, output_tokens: 0, total_tokens: inputTokens, cost },
  };
}
