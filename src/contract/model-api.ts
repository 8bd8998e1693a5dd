import { createChatCompletion } from './model-api-chat.js';
import { createDecision, createImage, createVideo } from './model-api-media.js';
import { countMessageTokens, createMessage } from './model-api-messages.js';
import { getApiModel, listApiModels, listDecisionModels, listVideoModels } from './model-api-models.js';
import { createResponse } from './model-api-responses.js';

/**
 * The model-calling APIs (spec 4.8): three chat surfaces in their families' public shapes, model
 * discovery, images, videos and the planned decisions endpoint, one module per family. Request
 * schemas accept what the official clients send; responses list the fields callers read (more may be present).
 */
export const modelApiRoutes = [
  createResponse,
  createChatCompletion,
  createMessage,
  countMessageTokens,
  listApiModels,
  listVideoModels,
  listDecisionModels,
  getApiModel,
  createImage,
  createVideo,
  createDecision,
];
