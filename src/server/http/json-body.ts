import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.js';
import { runCpuJob } from '../engines/workers/index.js';
import { JSON_OFF_LOOP_BYTES, MAX_JSON_VALUES, MAX_OBJECT_MEMBERS } from '../text/json-shape.js';

/**
 * JSON bodies, parsed by Fastify's own parser (prototype poisoning refused), but a body over
 * JSON_OFF_LOOP_BYTES is first measured on the CPU pool's light lane (json-shape.ts): one that
 * would build more than the limits is refused with a 413 before it is parsed, so no body — on any
 * route, even one that would refuse it — holds the event loop for long.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (body.length <= JSON_OFF_LOOP_BYTES) return parse(request, body.toString('utf8'), done);
    // A copy the worker owns (moved, not cloned); the request keeps its own bytes for the parse.
    const bytes = new Uint8Array(body);
    runCpuJob('json-shape', { bytes }, { urgent: true, owner: request.ip, transfer: [bytes.buffer] }).then(
      (refusal) => {
        if (refusal === null) return parse(request, body.toString('utf8'), done);
        done(
          new HttpError(
            'PAYLOAD_TOO_LARGE',
            `Request body is too complex to read: ${refusal}. A JSON body over ${JSON_OFF_LOOP_BYTES / 1024} KiB may hold at most ${MAX_JSON_VALUES} values (object members and array items) and ${MAX_OBJECT_MEMBERS} members in one object`,
            { status: 413 },
          ),
          undefined,
        );
      },
      (err: Error) => done(err, undefined),
    );
  });
}
