import path from 'node:path';
import type { AppContext } from '../context.js';

/** Everything of one task lives under files/tasks/<id>: inputs/ (reference files) and output/. */
export function taskDir(ctx: Pick<AppContext, 'config'>, taskId: string): string {
  return path.join(ctx.config.filesDir, 'tasks', taskId);
}

export function taskOutputDir(ctx: Pick<AppContext, 'config'>, taskId: string): string {
  return path.join(taskDir(ctx, taskId), 'output');
}

export function taskInputsDir(ctx: Pick<AppContext, 'config'>, taskId: string): string {
  return path.join(taskDir(ctx, taskId), 'inputs');
}
