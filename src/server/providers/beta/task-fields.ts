import { MAX_TAG, TASK_STATUS } from '../../../contract/beta-seo.js';
import { TaskError } from './envelope.js';

/**
 * Reading one task object's fields: each mistake is a task error naming the field, 40501 for a
 * missing, unknown or mistyped field, 40503 for a value out of its range.
 */
export class TaskFields {
  constructor(
    readonly task: Record<string, unknown>,
    allowed: readonly string[],
  ) {
    const unknown = Object.keys(task).filter((k) => !allowed.includes(k));
    if (unknown.length)
      throw new TaskError(TASK_STATUS.invalidField, `unknown field ${unknown[0]}; fields: ${allowed.join(', ')}`);
  }

  has(name: string): boolean {
    return this.task[name] !== undefined && this.task[name] !== null;
  }

  string(name: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const v = this.task[name];
    if (v === undefined || v === null) {
      if (options.required) throw new TaskError(TASK_STATUS.invalidField, `${name} is required`);
      return undefined;
    }
    if (typeof v !== 'string') throw new TaskError(TASK_STATUS.invalidField, `${name} must be a string`);
    if (options.max !== undefined && [...v].length > options.max)
      throw new TaskError(TASK_STATUS.invalidValue, `${name} is longer than ${options.max} characters`);
    return v;
  }

  int(name: string, range: { min: number; max: number; default: number }): number {
    const v = this.task[name];
    if (v === undefined || v === null) return range.default;
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new TaskError(TASK_STATUS.invalidField, `${name} must be an integer`);
    if (v < range.min || v > range.max)
      throw new TaskError(TASK_STATUS.invalidValue, `${name} must be between ${range.min} and ${range.max}; got ${v}`);
    return v;
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.task[name];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') throw new TaskError(TASK_STATUS.invalidField, `${name} must be true or false`);
    return v;
  }

  oneOf<const T extends string>(name: string, values: readonly T[], fallback: T): T {
    const v = this.task[name];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
      throw new TaskError(
        TASK_STATUS.invalidValue,
        `${name} must be one of ${values.join(', ')}; got ${JSON.stringify(v)}`,
      );
    return v as T;
  }

  tag(): string | undefined {
    return this.string('tag', { max: MAX_TAG });
  }
}
