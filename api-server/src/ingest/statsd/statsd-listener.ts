/**
 * The StatsD UDP listener (SVC_STATSD_PORT): each datagram is parsed, bad lines are counted and
 * skipped, and the records join the same ingest pipeline as every other source. A datagram that
 * arrives while the ingest sink refuses (queue full, analysis backlog, cluster topic unreachable)
 * is dropped (UDP has no back-channel); the sink itself counts what it refused in
 * rpt_ingest_dropped_total, so the listener counts only its own bad lines.
 */
import type { IngestOutcome } from '../../pipeline/ingest-sink.js';
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import type { DecodedBatch } from '../../model/records.js';
import { StatsdParser } from './statsd-parser.js';

export interface StatsdPorts {
  /** the ingest sink; it counts what it refuses (StatsD has no answer to give) */
  accept(batch: DecodedBatch): Promise<IngestOutcome>;
  dropped(reason: 'statsd_bad_line', n: number): void;
  now(): number;
}

export class StatsdListener {
  private socket: Socket | undefined;
  private readonly parser = new StatsdParser();

  constructor(private readonly ports: StatsdPorts) {}

  async start(port: number, address: string): Promise<number> {
    const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
    socket.on('message', (message) => this.onDatagram(message));
    socket.on('error', () => undefined); // a bad datagram never kills the socket
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind(port, address, () => resolve());
      });
    } catch (error) {
      // the descriptor exists from the bind attempt on: a refused start closes it
      socket.close();
      throw error;
    }
    this.socket = socket;
    return socket.address().port;
  }

  async stop(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (socket !== undefined) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }

  private onDatagram(message: Buffer): void {
    const { metrics, badLines } = this.parser.parse(message.toString('utf8'), this.ports.now());
    if (badLines > 0) this.ports.dropped('statsd_bad_line', badLines);
    if (metrics.length === 0) return;
    void this.ports.accept({ metrics, logs: [], spans: [], rejected: 0 });
  }
}
