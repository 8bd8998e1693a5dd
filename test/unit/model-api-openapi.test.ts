import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/contract/index.js';
import { buildOpenApi } from '../../src/contract/openapi.js';

describe('the OpenAPI document with the model-calling APIs', () => {
  it('is valid OpenAPI 3.1 and names every /api/v1 and /admin/models route', async () => {
    const doc = buildOpenApi(ROUTES, { version: '0.0.0' }) as {
      paths: Record<string, Record<string, { security: unknown[] }>>;
    };
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const p of [
      '/api/v1/responses',
      '/api/v1/chat/completions',
      '/api/v1/messages',
      '/api/v1/models',
      '/api/v1/models/{model_id}',
      '/api/v1/decisions',
      '/admin/models/{model_id}/hide',
      '/api/v1/responses/{response_id}',
      '/api/v1/responses/{response_id}/input_items',
      '/api/v1/responses/input_tokens',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(Object.keys(doc.paths['/api/v1/responses/{response_id}']).sort()).toEqual(['delete', 'get']);
    // Bearer key or X-API-Key on every model-calling route
    expect(doc.paths['/api/v1/messages'].post.security).toEqual([{ bearerApiKey: [] }, { apiKeyHeader: [] }]);
  });
});
