import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ipAllowList, LOOPBACK } from './ip-allow.js';
import type { Metrics } from './metrics.js';

/** A listener that serves a process's `/metrics` and `/healthz` (a worker has no HTTP server of its own). */
export interface MetricsListener {
  /** `http://host:port` it listens on. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text; to the addresses of `allow`, loopback when empty, the
 * peer's own address since no proxy stands in front) and `GET /healthz` on `host:port` (0: a free
 * port); anything else is 404. For `marketlens worker`, whose job metrics would otherwise go
 * unscraped.
 */
export async function startMetricsListener(
  metrics: Metrics,
  options: { host: string; port: number; allow: readonly string[] },
): Promise<MetricsListener> {
  const allowed = ipAllowList(options.allow.length === 0 ? LOOPBACK : options.allow);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed\n');
    if (path === '/healthz') return send(200, 'application/json', '{"status":"ok"}\n');
    if (path !== '/metrics') return send(404, 'text/plain', 'not found\n');
    const peer = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    if (!allowed(peer)) return send(403, 'text/plain', 'metrics are served to allowed addresses only\n');
    metrics.registry.metrics().then(
      (text) => send(200, metrics.registry.contentType, text),
      () => send(500, 'text/plain', 'metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const info = server.address() as AddressInfo;
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  return {
    url: `http://${host}:${info.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
