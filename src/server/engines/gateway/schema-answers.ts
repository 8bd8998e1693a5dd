import { HttpError } from '../../errors.js';
import { checkSchemaPatterns } from './caller-patterns.js';
import { maxValueChars, SchemaBudget, UnsatisfiableSchema } from './schema-budget.js';
import { unsatisfiable, valueFromSchema } from './schema-values.js';

/** One schema to answer: `text` offers the values, `param` is the request field that holds the schema. */
export interface SchemaTask {
  schema: Record<string, unknown>;
  text: string;
  param: string;
}

export interface SchemaJob {
  tasks: SchemaTask[];
  /** The request's max tokens: its values together may take what they can carry (schema-budget.ts). */
  maxTokens?: number;
  /** Refuse a `pattern` RE2 cannot run (the check before answering) as well. */
  checkPatterns?: boolean;
}

/** The values, in task order, or the 400 that refuses the request, as plain data (it crosses a thread). */
export type SchemaAnswers =
  { values: unknown[] } | { refusal: { code: string; message: string; status: number; param: string } };

/**
 * The local agent model's schema work for one request, as a CPU job (engines/workers): every
 * schema's patterns checked and its value written under one budget. A refusal is an answer, not a
 * failure, so its code and field survive the trip back to the request.
 */
export function writeSchemaAnswers(job: SchemaJob): SchemaAnswers {
  const budget = new SchemaBudget(maxValueChars(job.maxTokens));
  const values: unknown[] = [];
  for (const task of job.tasks) {
    try {
      if (job.checkPatterns) checkSchemaPatterns(task.schema, task.param);
      values.push(valueFromSchema(task.schema, task.text, budget));
    } catch (err) {
      const refused = err instanceof UnsatisfiableSchema ? unsatisfiable(task.param, err) : err;
      if (!(refused instanceof HttpError)) throw err;
      return { refusal: { code: refused.code, message: refused.message, status: refused.status, param: task.param } };
    }
  }
  return { values };
}
