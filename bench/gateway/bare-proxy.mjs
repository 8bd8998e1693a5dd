// The floor of any gateway on this machine: a bare node:http server that forwards each request's body
// to the upstream over a kept-alive undici connection and sends the answer back — no auth, no
// validation, no translation, no metering. bench/gateway measures it beside the platform, so "added"
// can be read against what one more HTTP hop costs here at all.
import http from 'node:http';
import { Agent, request } from 'undici';

const upstream = process.env.BENCH_UPSTREAM;
const agent = new Agent({ keepAliveTimeout: 30_000 });
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      const answer = await request(`${upstream}${req.url.replace(/^\/api\/v1/, '')}`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      const bytes = Buffer.from(await answer.body.arrayBuffer());
      res.writeHead(answer.statusCode, { 'content-type': 'application/json', 'content-length': bytes.length });
      res.end(bytes);
    } catch (err) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(err) } }));
    }
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
