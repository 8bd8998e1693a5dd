import { listImageModels } from '../contract/image-models.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export const modelsClient = (t: Transport) => ({
  listImage: () => callRoute(t, listImageModels),
});
