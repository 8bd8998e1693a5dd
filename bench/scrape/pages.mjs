// bench/scrape's page server, in its own process (forked by run.mjs): the pages a batch scrape reads
// live on other machines for a user, so they do not share the measured server's event loop here
// either. HTTPS with the certificate run.mjs made; each page answers after BENCH_PAGE_DELAY_MS.
// Over IPC: sends {port} once listening; answers 'hits' with how many times each path was fetched.
import https from 'node:https';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.BENCH_SCRAPE_TLS_DIR;
const DELAY = Number(process.env.BENCH_PAGE_DELAY_MS ?? 50);
const words = 'The harbour lighthouse guides every fishing boat home through fog and storm. '.repeat(40);
const hits = new Map();
const server = https.createServer(
  { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) },
  (req, res) => {
    hits.set(req.url, (hits.get(req.url) ?? 0) + 1);
    setTimeout(() => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<html><head><title>Page ${req.url}</title></head><body><nav>menu</nav><article><h1>${req.url}</h1><p>${words}</p><p>${words}</p></article></body></html>`,
        );
    }, DELAY);
  },
);
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port, textBytes: words.length * 2 }));
process.on('message', (m) => {
  if (m === 'hits') process.send({ hits: [...hits.entries()] });
});
process.on('disconnect', () => process.exit(0));
