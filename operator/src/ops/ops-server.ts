/** The small ops port (operator.md §14): /healthz, /readyz (body leader or standby), /metrics. */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperatorMetrics } from './operator-metrics.js';

export async function startOpsServer(port: number, metrics: OperatorMetrics, isLeader: () => boolean): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } else if (req.url === '/readyz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(isLeader() ? 'leader' : 'standby');
    } else if (req.url === '/metrics') {
      void metrics.registry.metrics().then((text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
