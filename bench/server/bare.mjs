// The baselines: a bare Fastify route answering a JSON array like GET /auth/api-keys does, and one
// sending the bytes of the page GET /v2/livedocs answers (BENCH_PAGE); when
// BENCH_DB names facet's database, a bare route that runs the same key-listing query on it (what one
// SQLite read per request costs on this machine, with no auth and no framework of ours); and a bare
// POST that parses a JSON body and INSERTs one row into its own SQLite file (BENCH_WRITE_DB), with
// the pragmas facet uses — the baseline of POST /v2/livedocs.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import Sqlite from 'better-sqlite3';

const app = Fastify({ logger: false });
const body = [
  {
    id: 'key_0123456789abcdef',
    name: 'bootstrap',
    prefix: 'fk_0123456',
    user_id: 'usr_0123456789abcdef',
    status: 'active',
    created_at: new Date().toISOString(),
    expires_at: null,
    frozen_at: null,
    last_used_at: null,
  },
];
app.get('/auth/api-keys', async () => body);
// BENCH_PAGE names a file holding the very answer facet gives to GET /v2/livedocs (a page of 20):
// the bare route sends those bytes, serialized once as facet sends a cached page, so both sides
// write and parse the same bytes and neither pays a JSON.stringify per request.
if (process.env.BENCH_PAGE) {
  const page = readFileSync(process.env.BENCH_PAGE);
  app.get('/v2/livedocs', (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(page);
  });
}
if (process.env.BENCH_DB) {
  const db = new Sqlite(process.env.BENCH_DB);
  db.pragma('journal_mode = WAL');
  const userId = db.prepare('select id from users order by created_at limit 1').get().id;
  const list = db.prepare(
    'select * from "api_keys" where "deleted_at" is null and "user_id" = ? order by "created_at", "id"',
  );
  app.get('/sql/auth/api-keys', async () => list.all(userId));
}
if (process.env.BENCH_WRITE_DB) {
  const db = new Sqlite(process.env.BENCH_WRITE_DB);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'create table if not exists docs (id text primary key, owner_id text not null, name text not null, description text not null, created_at text not null)',
  );
  const insert = db.prepare('insert into docs (id, owner_id, name, description, created_at) values (?, ?, ?, ?, ?)');
  app.post('/sql/livedocs', async (request) => {
    const row = {
      id: randomUUID(),
      owner_id: 'usr_bench',
      name: String(request.body.name),
      description: String(request.body.description ?? ''),
      created_at: new Date().toISOString(),
    };
    insert.run(row.id, row.owner_id, row.name, row.description, row.created_at);
    return { status: 'ok', message: null, data: row };
  });
}
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on http://127.0.0.1:${app.server.address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
