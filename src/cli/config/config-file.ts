import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One JSON file read once and written whole: to a private temporary file next to it, then renamed
 * over it, so a crash or a second CLI process never leaves half a file and the file is never
 * readable by others (0600 in a 0700 folder). Plain node:fs on purpose: every command reads the
 * config, and a schema-validating config library costs each of them its load time.
 */
export class JsonFile<T extends object> {
  private cached: T | undefined;

  constructor(
    readonly path: string,
    private readonly defaults: () => T,
  ) {}

  read(): T {
    if (this.cached) return this.cached;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return (this.cached = this.defaults());
      throw err;
    }
    try {
      const value: unknown = text.trim() === '' ? {} : JSON.parse(text);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
      return (this.cached = { ...this.defaults(), ...value });
    } catch (err) {
      throw new Error(`the config file ${this.path} is not valid JSON (${(err as Error).message}); fix or delete it`, {
        cause: err,
      });
    }
  }

  write(value: T): void {
    mkdirSync(path.dirname(this.path), { recursive: true, mode: 0o700 });
    // node:crypto only here, when something is written: every command reads the config, few write it.
    const { randomBytes } = process.getBuiltinModule('node:crypto');
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(value, null, '\t') + '\n', { mode: 0o600 });
      renameSync(temp, this.path);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    this.cached = value;
  }
}
