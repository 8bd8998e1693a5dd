import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/contract/index.js';
import { buildOpenApi } from '../../src/contract/openapi.js';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters: Array<{
          name: string;
          in: string;
          required: boolean;
          schema: { maxLength?: number; minLength?: number };
        }>;
      }
    >
  >;
};

describe('request headers in the OpenAPI document', () => {
  it('declares the batch scrape Idempotency-Key header as a required header parameter with its 1-191 bound', () => {
    const doc = buildOpenApi(ROUTES, { version: '0.0.0' }) as Doc;
    const params = doc.paths['/v1/beta/scrape/batch-scrape'].post.parameters;
    const header = params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    expect(header).toBeDefined();
    expect(header!.required).toBe(true);
    expect(header!.schema).toMatchObject({ minLength: 1, maxLength: 191 });
  });
});
