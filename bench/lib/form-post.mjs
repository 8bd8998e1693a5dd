// A multipart/form-data POST over one kept-alive node:http connection, the way facet's CLI sends its
// forms (node:http, the body written out by hand). A bench that runs the server in its own process
// times the client too, on the same event loop: fetch with FormData costs about 0.7 ms of that loop
// per call, which is the client's, not the server's.
import http from 'node:http';
import { randomBytes } from 'node:crypto';

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function formBody(fields) {
  const boundary = `----facet-bench-${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { boundary, body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`) };
}

/** Host, port and path of a URL, parsed once per URL (node:http parses a URL string on every call). */
const targets = new Map();
function target(url) {
  let t = targets.get(url);
  if (!t) {
    const u = new URL(url);
    targets.set(url, (t = { hostname: u.hostname, port: u.port, path: `${u.pathname}${u.search}` }));
  }
  return t;
}

/** POSTs the text fields as multipart/form-data; resolves with the status and the parsed JSON body. */
export function postForm(url, headers, fields) {
  const { boundary, body } = formBody(fields);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        ...target(url),
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Lets the process exit: the kept-alive connections are closed. */
export function closeForms() {
  agent.destroy();
}
