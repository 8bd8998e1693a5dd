import { describe, expect, it } from 'vitest';
import { shapeError } from '../../src/server/http/error-shape.js';
import { HttpError, RequestValidationError } from '../../src/server/errors.js';
import { describeErrorBody } from '../../src/client/errors.js';
import {
  AnthropicErrorBody,
  DecisionsErrorBody,
  FinancialErrorBody,
  ImageErrorBody,
  OpenAIErrorBody,
  V2ErrorBody,
  ValidationErrorBody,
  BetaErrorBody,
} from '../../src/contract/errors.js';

const err = new HttpError('KEY_FROZEN', 'frozen');

describe('one failure, each family its own shape', () => {
  it('matches the contract schema of every family and reads back the same code', () => {
    const cases = [
      ['image', ImageErrorBody],
      ['v2', V2ErrorBody],
      ['openai', OpenAIErrorBody],
      ['anthropic', AnthropicErrorBody],
      ['decisions', DecisionsErrorBody],
      ['financial', FinancialErrorBody],
      ['beta', BetaErrorBody],
    ] as const;
    for (const [family, schema] of cases) {
      const shaped = shapeError(family, err, 'req_1');
      expect(shaped.status).toBe(403);
      expect(schema.safeParse(shaped.body).success, family).toBe(true);
      const read = describeErrorBody(shaped.status, shaped.body);
      if (family === 'decisions') expect(read.code).toBe('403');
      else if (family === 'anthropic' || family === 'openai') expect(read.message).toBe('frozen');
      else expect(read.code).toBe('KEY_FROZEN');
    }
  });

  it('hides the message of unexpected errors', () => {
    const shaped = shapeError('v2', new Error('SELECT * FROM secrets failed'), 'req_2');
    expect(shaped).toMatchObject({
      status: 500,
      body: { status: 'error', code: 'INTERNAL_ERROR', message: 'Internal server error' },
    });
  });

  it('renders validation failures per family', () => {
    const v = new RequestValidationError([{ loc: ['body', 'query'], msg: 'Field required', type: 'missing' }], true);
    const image = shapeError('image', v, 'r');
    expect(image.status).toBe(422);
    expect(ValidationErrorBody.parse(image.body).detail[0].loc).toEqual(['body', 'query']);
    expect(shapeError('v2', v, 'r')).toMatchObject({ status: 400, body: { code: 'MISSING_PARAMETER' } });
    expect(shapeError('openai', v, 'r', 422).status).toBe(422);
  });

  it('keeps v2 extras such as the numeric 429 status', () => {
    const e = new HttpError('RATE_LIMITED', 'limit', { headers: { 'retry-after': '3' }, extra: { status: 429 } });
    const shaped = shapeError('v2', e, 'req_3');
    expect(shaped.body).toEqual({ status: 429, code: 'RATE_LIMITED', message: 'limit', request_id: 'req_3' });
    expect(shaped.headers['retry-after']).toBe('3');
  });
});
