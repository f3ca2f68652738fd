import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { StreamStatus } from '../../../dashboard/src/live/event-stream.js';
import { nextDelay, openEventStream, requestHeaders } from '../../../dashboard/src/live/event-stream.js';
import { eventually } from '../../support/service.js';

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/events` };
}

describe('live event stream over fetch()', () => {
  it('sends the bearer key, reconnects after the stream ends and asks for a replay with Last-Event-ID', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const { server, url } = await listen((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      if (seen.length === 1) {
        res.write('data: {"type":"connected"}\n\n');
        res.write('id: ev_000001\ndata: {"type":"warning","workload":"a/Deployment/b"}\n\n');
        res.end('id: ev_000002\ndata: {"type":"critical","workload":"a/Deployment/b"}\n\n');
      } else {
        res.write('id: ev_000003\ndata: {"type":"recovered","workload":"a/Deployment/b"}\n\n');
      }
    });
    const messages: unknown[] = [];
    const statuses: StreamStatus[] = [];
    const stream = openEventStream({ url, key: 'k1', minDelayMs: 20, onMessage: (d) => messages.push(d), onStatus: (s) => statuses.push(s) });
    try {
      await eventually(async () => (messages.length >= 4 ? true : undefined), 5000, 'four frames over two connections');
      expect(seen[0]?.['authorization']).to.equal('Bearer k1');
      expect(seen[0]?.['last-event-id']).to.equal(undefined);
      expect(seen[1]?.['last-event-id']).to.equal('ev_000002');
      expect(messages.map((m) => (m as { type: string }).type)).to.deep.equal(['connected', 'warning', 'critical', 'recovered']);
      expect(statuses.slice(0, 4)).to.deep.equal(['connecting', 'open', 'reconnecting', 'connecting']);
      expect(stream.lastEventId).to.equal('ev_000003');
    } finally {
      stream.close();
      server.closeAllConnections();
      server.close();
    }
    expect(statuses[statuses.length - 1]).to.equal('closed');
  });

  it('stops for good on 401 and reports it', async () => {
    let calls = 0;
    const { server, url } = await listen((_req, res) => {
      calls += 1;
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end('{"error":"unauthorized"}');
    });
    const statuses: StreamStatus[] = [];
    const stream = openEventStream({ url, key: 'wrong', minDelayMs: 10, onMessage: () => undefined, onStatus: (s) => statuses.push(s) });
    try {
      await eventually(async () => (statuses.includes('unauthorized') ? true : undefined), 5000, 'the 401');
      await new Promise((r) => setTimeout(r, 100));
      expect(calls).to.equal(1);
    } finally {
      stream.close();
      server.close();
    }
  });

  it('retries a refused connection with a doubling back-off capped at the maximum', async () => {
    expect(nextDelay(0, 1000, 30_000)).to.equal(1000);
    expect(nextDelay(1000, 1000, 30_000)).to.equal(2000);
    expect(nextDelay(16_000, 1000, 30_000)).to.equal(30_000);
    expect(requestHeaders('k', '')).to.deep.equal({ Accept: 'text/event-stream', Authorization: 'Bearer k' });
    expect(requestHeaders('k', 'ev_000009')['Last-Event-ID']).to.equal('ev_000009');

    let calls = 0;
    const { server, url } = await listen((_req, res) => {
      calls += 1;
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.end('{"error":"starting"}');
    });
    const stream = openEventStream({ url, key: 'k', minDelayMs: 10, maxDelayMs: 40, onMessage: () => undefined });
    try {
      await eventually(async () => (calls >= 3 ? true : undefined), 5000, 'three attempts');
    } finally {
      stream.close();
      server.close();
    }
  });
});
