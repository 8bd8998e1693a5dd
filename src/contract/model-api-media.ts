import { z } from 'zod';
import { xmlText } from './fields.js';
import { defineRoute } from './route.js';
import { DecisionsErrorBody, OpenAIErrorBody } from './errors.js';
import { ModelId, openaiErrors } from './model-api-common.js';

/** Images, videos and the planned decisions endpoint (spec 4.8). */

/** An image side the local illustration engine draws: 64 to 2048 pixels, written without leading zeros. */
const SIDE = '(?:6[4-9]|[7-9][0-9]|[1-9][0-9]{2}|1[0-9]{3}|20[0-3][0-9]|204[0-8])';
export const IMAGE_SIZE = new RegExp(`^${SIDE}x${SIDE}$`);

export const ImageGenerationRequest = z.object({
  model: ModelId.optional(),
  prompt: xmlText(z.string().min(1).max(4000)),
  n: z.number().int().min(1).max(4).optional(),
  size: z.string().regex(IMAGE_SIZE, 'WIDTHxHEIGHT, each side 64-2048, for example 1024x1024').optional(),
  response_format: z.enum(['b64_json', 'url']).optional(),
  user: z.string().optional(),
});

export const ImageGeneration = z.object({
  created: z.number().int(),
  data: z.array(z.object({ b64_json: z.string().optional(), url: z.string().optional(), revised_prompt: z.string() })),
  usage: z.object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
    cost: z.number(),
  }),
});

export const VideoGenerationRequest = z
  .object({ model: ModelId, prompt: xmlText(z.string().min(1).max(4000)) })
  .loose();

export const createImage = defineRoute({
  id: 'api.images.generations',
  method: 'POST',
  path: '/api/v1/images/generations',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary: 'Images in the OpenAI Images shape, through the local illustration engine',
  body: ImageGenerationRequest,
  responses: { 200: ImageGeneration, ...openaiErrors },
});

export const createVideo = defineRoute({
  id: 'api.videos.generations',
  method: 'POST',
  path: '/api/v1/videos/generations',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary: 'Video generation: needs an upstream that offers video',
  body: VideoGenerationRequest,
  responses: { 200: z.object({}).loose(), 501: OpenAIErrorBody, ...openaiErrors },
});

export const createDecision = defineRoute({
  id: 'api.decisions.create',
  method: 'POST',
  path: '/api/v1/decisions',
  auth: 'key',
  family: 'decisions',
  tag: 'model-api',
  summary: 'Planned, not yet available: always 501 in the decisions error shape',
  responses: { 501: DecisionsErrorBody, 401: DecisionsErrorBody },
});
