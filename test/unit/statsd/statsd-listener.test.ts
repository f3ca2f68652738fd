import { expect } from 'chai';
import { createSocket, type Socket } from 'node:dgram';
import { readdirSync, readlinkSync } from 'node:fs';
import type { DecodedBatch } from '../../../api-server/src/model/records.js';
import type { IngestOutcome } from '../../../api-server/src/pipeline/ingest-sink.js';
import { StatsdListener, type StatsdPorts } from '../../../api-server/src/ingest/statsd/statsd-listener.js';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import { IngestPipeline } from '../../../api-server/src/pipeline/ingest-pipeline.js';
import { LocalIngestSink } from '../../../api-server/src/pipeline/ingest-sink.js';

const NOW = 1_800_000_000_000;

/** what the listener handed on and counted; answers every batch with `outcome` */
class RecordingPorts implements StatsdPorts {
  readonly batches: DecodedBatch[] = [];
  readonly drops: string[] = [];
  private waiters: (() => void)[] = [];
  constructor(public outcome: IngestOutcome) {}
  accept(batch: DecodedBatch): Promise<IngestOutcome> {
    this.batches.push(batch);
    return Promise.resolve(this.outcome);
  }
  dropped(reason: string, n: number): void {
    this.drops.push(`${reason} ${n}`);
    this.notify();
  }
  now(): number {
    return NOW;
  }
  /** resolves once `predicate` holds (checked after each accept or drop, and on a short poll) */
  async until(predicate: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !predicate(); i++) await new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      setTimeout(resolve, 10);
    });
    expect(predicate(), 'the listener did not get there within 2 s').to.equal(true);
  }
  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

describe('ingest/statsd/statsd-listener: datagrams over a real UDP socket to the ingest sink', () => {
  let client: Socket;
  const send = (port: number, text: string) => new Promise<void>((resolve, reject) => client.send(text, port, '127.0.0.1', (e) => (e ? reject(e) : resolve())));
  before(() => {
    client = createSocket('udp4');
  });
  after(() => client.close());

  it('parses a datagram, hands its metrics on as one batch and counts its bad lines', async () => {
    const ports = new RecordingPorts('accepted');
    const listener = new StatsdListener(ports);
    const port = await listener.start(0, '127.0.0.1');
    try {
      expect(port).to.be.greaterThan(0);
      await send(port, 'cpu_percent:40|g|#namespace:shop,deployment:cart\nnot statsd\nrequests:3|c|#namespace:shop,deployment:cart');
      await ports.until(() => ports.batches.length === 1 && ports.drops.length === 1);
      const [batch] = ports.batches;
      expect(batch!.metrics.map((m) => `${m.workload} ${m.name} ${m.value} ${m.timeMs}`)).to.deep.equal([
        `shop/Deployment/cart cpu_percent 40 ${NOW}`,
        `shop/Deployment/cart requests 3 ${NOW}`,
      ]);
      expect([batch!.logs, batch!.spans, batch!.rejected]).to.deep.equal([[], [], 0]);
      expect(ports.drops).to.deep.equal(['statsd_bad_line 1']);
    } finally {
      await listener.stop();
    }
  });

  it('hands on nothing for a datagram of bad lines only, and keeps serving', async () => {
    const ports = new RecordingPorts('accepted');
    const listener = new StatsdListener(ports);
    const port = await listener.start(0, '127.0.0.1');
    try {
      await send(port, 'one\ntwo|x');
      await send(port, 'latency_ms:80|ms');
      await ports.until(() => ports.batches.length === 1);
      expect(ports.drops).to.deep.equal(['statsd_bad_line 2']);
      expect(ports.batches[0]!.metrics.map((m) => m.name)).to.deep.equal(['latency_ms']);
    } finally {
      await listener.stop();
    }
  });

  it('counts a datagram the sink refused once: the pipeline counts it (queue_full, analysis_backlog), the listener does not again', async () => {
    const drops: string[] = [];
    const counters = { accepted: () => undefined, dropped: (reason: string, n: number) => drops.push(`${reason} ${n}`) };
    // a real pipeline over a real analysis: at most 2 records may wait, and at most 1 workload-bucket
    const core = new AnalysisCoreImpl({ newHexId: () => '000000000000' });
    const pipeline = new IngestPipeline(core, counters, () => NOW, 2, 1);
    const sink = new LocalIngestSink(pipeline);
    const listenerDrops: string[] = [];
    const listener = new StatsdListener({ accept: (b) => sink.accept(b), dropped: (r, n) => listenerDrops.push(`${r} ${n}`), now: () => NOW });
    const port = await listener.start(0, '127.0.0.1');
    const until = async (predicate: () => boolean): Promise<void> => {
      for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(predicate(), 'the listener did not get there within 2 s').to.equal(true);
    };
    try {
      await send(port, 'a:1|g|#namespace:shop,deployment:cart\nb:2|g|#namespace:shop,deployment:cart\nc:3|g|#namespace:shop,deployment:cart');
      await until(() => drops.length === 1);
      expect(drops).to.deep.equal(['queue_full 3']);
      await send(port, 'a:1|g|#namespace:shop,deployment:cart');
      await until(() => core.waitingBuckets() === 1);
      // the analysis now holds one open bucket, its bound: the next datagram is refused whole
      await send(port, 'b:2|g|#namespace:shop,deployment:cart\nc:3|g|#namespace:shop,deployment:cart');
      await until(() => drops.length === 2);
      expect(drops).to.deep.equal(['queue_full 3', 'analysis_backlog 2']);
      expect(listenerDrops).to.deep.equal([]);
    } finally {
      await listener.stop();
    }
  });

  it('rejects start on a port already bound, and stops twice without harm', async () => {
    const first = new StatsdListener(new RecordingPorts('accepted'));
    const port = await first.start(0, '127.0.0.1');
    const second = new StatsdListener(new RecordingPorts('accepted'));
    try {
      const error = await second.start(port, '127.0.0.1').then(
        () => undefined,
        (e: unknown) => e as NodeJS.ErrnoException,
      );
      expect(error?.code).to.equal('EADDRINUSE');
    } finally {
      await first.stop();
      await first.stop();
      await second.stop();
    }
  });

  it('closes its socket when the bind fails, so a refused start leaves no descriptor open', async () => {
    // the socket's descriptor exists from the bind attempt on; a leaked one stays in /proc/self/fd
    const socketDescriptors = (): number => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
      } catch {
        return false; // closed while listing
      }
    }).length;
    const blocker = new StatsdListener(new RecordingPorts('accepted'));
    const port = await blocker.start(0, '127.0.0.1');
    try {
      const before = socketDescriptors();
      for (let i = 0; i < 3; i++) {
        const refused = new StatsdListener(new RecordingPorts('accepted'));
        const error = await refused.start(port, '127.0.0.1').then(
          () => undefined,
          (e: unknown) => e as NodeJS.ErrnoException,
        );
        expect(error?.code).to.equal('EADDRINUSE');
      }
      expect(socketDescriptors()).to.equal(before);
    } finally {
      await blocker.stop();
    }
  });
});
