import { HttpError } from '../../errors.js';
import { runCpuJob } from '../workers/index.js';
import type { SchemaJob } from './schema-answers.js';

/**
 * The local agent model's schema work (schema-answers.ts), off the event loop: on the CPU pool's
 * light lane, under its time limit. The budget bounds the work by construction; the time limit is
 * the second wall, so a flaw in the walk costs this request a 422, never the server.
 */
export async function schemaAnswers(job: SchemaJob, options: { owner?: string; signal?: AbortSignal } = {}) {
  let answers;
  try {
    answers = await runCpuJob('schema-values', job, { urgent: true, owner: options.owner, signal: options.signal });
  } catch (err) {
    if (err instanceof HttpError || options.signal?.aborted) throw err;
    throw new HttpError(
      'INPUT_TOO_COMPLEX',
      `facet-agent could not write a value for this schema (${(err as Error).message}); only this request failed`,
      { status: 422 },
    );
  }
  if ('values' in answers) return answers.values;
  const { code, message, status, param } = answers.refusal;
  throw new HttpError(code, message, { status, extra: { param } });
}
