// The baseline: a bare Fastify route answering a JSON array like GET /auth/api-keys does.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = [{ id: 'key_0123456789abcdef', name: 'bootstrap', prefix: 'fk_0123456', user_id: 'usr_0123456789abcdef', status: 'active', created_at: new Date().toISOString(), expires_at: null, frozen_at: null, last_used_at: null }];
app.get('/auth/api-keys', async () => body);
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on http://127.0.0.1:${app.server.address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
