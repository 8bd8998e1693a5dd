import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { groupCommitWriter } from '../../../src/server/store/group-commit.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A file database written through the group-commit writer, and a second connection watching it. */
function setup() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-group-commit-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table t (id text primary key, n integer not null)');
  const watcher = new Sqlite(file);
  // data_version moves once per commit made by another connection: it counts the writer's commits.
  const commits = () => Number(watcher.pragma('data_version', { simple: true }));
  const rows = () => (watcher.prepare('select id from t order by id').all() as Array<{ id: string }>).map((r) => r.id);
  const write = groupCommitWriter(sqlite, { prepare: (sql) => sqlite.prepare(sql) });
  const insert = (id: string) => [{ sql: 'insert into t (id, n) values (?, ?)', parameters: [id, 1] }];
  return { sqlite, write, insert, commits, rows };
}

describe('group commit', () => {
  it('commits the first write of a turn at once and the others of that turn together, each visible before its promise settles', async () => {
    const { write, insert, commits, rows } = setup();
    const before = commits();
    const seenAtSettle: string[][] = [];
    const ids = Array.from({ length: 10 }, (_, i) => `r${i}`);
    await Promise.all(
      ids.map((id) => {
        const done = write(insert(id));
        if (!done) throw new Error('refused a write on a free connection');
        return done.then(() => seenAtSettle.push(rows()));
      }),
    );
    expect(rows()).toEqual(ids);
    // One commit for the first write, one for the nine that came in the same turn.
    expect(commits() - before).toBe(2);
    // Nobody was told "written" before their row was committed.
    ids.forEach((id, i) => expect(seenAtSettle[i]).toContain(id));
  });

  it('rolls back a failing write alone: its caller gets the error, the rest of the batch is committed', async () => {
    const { write, insert, rows } = setup();
    await write(insert('dup'));
    await new Promise((r) => setImmediate(r)); // a new turn
    const outcomes = await Promise.allSettled([write(insert('a')), write(insert('b')), write(insert('dup')), write([...insert('c'), ...insert('dup')]), write(insert('d'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((outcomes[2] as PromiseRejectedResult).reason.message).toMatch(/UNIQUE/);
    // The set that failed half-way left nothing behind (c was in it).
    expect(rows()).toEqual(['a', 'b', 'd', 'dup']);
  });

  it('runs nothing and says so while another transaction holds the connection', async () => {
    const { sqlite, write, insert, rows } = setup();
    sqlite.exec('begin');
    expect(write(insert('x'))).toBe(false);
    sqlite.exec('rollback');
    expect(rows()).toEqual([]);
  });

  it('waits for a transaction opened after its writes were queued, then commits them', async () => {
    const { sqlite, write, insert, rows } = setup();
    const first = write(insert('a'));
    const queued = write(insert('b'));
    sqlite.exec('begin');
    sqlite.prepare('insert into t (id, n) values (?, ?)').run('k', 2);
    let settled = false;
    void (queued as Promise<void>).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    sqlite.exec('commit');
    await Promise.all([first, queued]);
    expect(rows()).toEqual(['a', 'b', 'k']);
  });
});
