import { z } from 'zod';
import { defineRoute } from './route.js';

export const ImageModel = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['illustration', 'screenshot']),
  description: z.string(),
  default_size: z.string().describe('WxH'),
  max_size: z.string().describe('WxH'),
});
export type ImageModel = z.infer<typeof ImageModel>;

export const ImageModelList = z.object({ models: z.array(ImageModel) });

export const listImageModels = defineRoute({
  id: 'image.models.list',
  method: 'GET',
  path: '/models',
  auth: 'none',
  family: 'image',
  tag: 'models',
  summary: 'The image models this platform offers',
  responses: { 200: ImageModelList },
});

export const imageModelRoutes = [listImageModels];
