import { fileKey } from '../files/file-store.js';

/** Everything of one task lives under tasks/<id> in the file store: inputs/ (reference files), output/ and, in an object store, artifacts.zip. */
export function taskPrefix(taskId: string): string {
  return fileKey('tasks', taskId);
}

export function taskOutputPrefix(taskId: string): string {
  return `${taskPrefix(taskId)}/output`;
}

export function taskInputKey(taskId: string, stored: string): string {
  return fileKey('tasks', taskId, 'inputs', stored);
}

/** The ZIP of a task's outputs, made once when the task ends if the store hands out download URLs. */
export function taskZipKey(taskId: string): string {
  return `${taskPrefix(taskId)}/artifacts.zip`;
}
