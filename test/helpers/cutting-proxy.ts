import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttingProxy {
  url: string;
  /** Request lines of the event-stream connections seen, in order. */
  streamRequests: string[];
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the platform that cuts the first `cuts` event-stream connections after
 * `afterBytes` bytes of response: a dropped connection in the middle of an answer, as a flaky
 * network would drop it.
 */
export async function cuttingProxy(
  target: string,
  options: { cuts: number; afterBytes: number },
): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  const streamRequests: string[] = [];
  let cutsLeft = options.cuts;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    const upstream = net.connect(Number(port), hostname);
    sockets.add(upstream);
    let cutThis = false;
    let sent = 0;
    let sawRequest = false;
    client.on('data', (chunk) => {
      if (!sawRequest) {
        sawRequest = true;
        const line = chunk.toString('latin1').split('\r\n')[0];
        if (line.includes('/v2/conversations/stream/')) {
          streamRequests.push(line);
          if (cutsLeft > 0) {
            cutsLeft--;
            cutThis = true;
          }
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (cutThis && sent + chunk.length >= options.afterBytes) {
        client.write(chunk.subarray(0, Math.max(0, options.afterBytes - sent)));
        client.destroy();
        upstream.destroy();
        return;
      }
      sent += chunk.length;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    streamRequests,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
