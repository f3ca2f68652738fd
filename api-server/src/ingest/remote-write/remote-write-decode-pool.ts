/**
 * Worker threads that decode remote-write protobuf bodies off the event loop (SVC_INGEST_DECODE_WORKERS,
 * off by default: on a machine whose cores are busy the hand-over costs more than the decode, see
 * docs/ingest-performance.md):
 * snappy, protobuf and workload identity run in a worker; the event loop gets flat typed arrays
 * back (transferred) and only maps names and buckets. A job goes to the worker with the fewest
 * jobs in flight. A worker that fails or exits hands its jobs back to the event loop, which then
 * decodes them itself (the same code, so the same answers), as it does once no worker is left.
 */
import { Worker } from 'node:worker_threads';
import { DecodeError } from '../../model/records.js';
import { identifyBody } from './remote-write-identify.js';
import type { IdentifiedSamples, TimeWindow } from './remote-write-samples.js';
import type { RemoteWriteVersion } from './remote-write-series.js';

export interface DecodeJob {
  id: number;
  body: Uint8Array;
  version: RemoteWriteVersion;
  window: TimeWindow | undefined;
}

export type DecodeReply =
  | { id: number; ids: IdentifiedSamples }
  | { id: number; decodeError: { message: string; field: string | undefined } }
  | { id: number; failure: string };

interface Pending {
  /** the request's body (the job's copy is transferred to the worker) */
  body: Buffer;
  version: RemoteWriteVersion;
  window: TimeWindow | undefined;
  resolve(ids: IdentifiedSamples): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  live: boolean;
}

/** the worker module beside this one: .js once built, .ts under tsx (tests, benches) */
function workerUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./remote-write-decode-worker${ext}`, import.meta.url);
}

export class RemoteWriteDecodePool {
  private readonly slots: Slot[];
  private nextId = 1;

  constructor(size: number) {
    this.slots = Array.from({ length: size }, () => this.start());
  }

  get liveWorkers(): number {
    return this.slots.filter((s) => s.live).length;
  }

  /** the identified samples of `body`; rejects with DecodeError when it does not decode */
  identify(body: Buffer, version: RemoteWriteVersion, window: TimeWindow | undefined): Promise<IdentifiedSamples> {
    const slot = this.leastBusy();
    if (slot === undefined) return Promise.resolve().then(() => identifyBody(body, version, window));
    // a copy with a buffer of its own: the body may share its ArrayBuffer with other requests' bytes
    const own = new Uint8Array(body);
    const job: DecodeJob = { id: this.nextId++, body: own, version, window };
    return new Promise<IdentifiedSamples>((resolve, reject) => {
      slot.pending.set(job.id, { body, version, window, resolve, reject });
      slot.worker.postMessage(job, [own.buffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.live = false;
        await slot.worker.terminate();
        this.handBack(slot);
      }),
    );
  }

  private start(): Slot {
    const worker = new Worker(workerUrl());
    const slot: Slot = { worker, pending: new Map(), live: true };
    worker.unref();
    worker.on('message', (reply: DecodeReply) => this.settle(slot, reply));
    const fail = (): void => {
      slot.live = false;
      this.handBack(slot);
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    return slot;
  }

  private leastBusy(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) if (s.live && (best === undefined || s.pending.size < best.pending.size)) best = s;
    return best;
  }

  private settle(slot: Slot, reply: DecodeReply): void {
    const p = slot.pending.get(reply.id);
    if (p === undefined) return;
    slot.pending.delete(reply.id);
    if ('ids' in reply) p.resolve(reply.ids);
    else if ('decodeError' in reply) p.reject(new DecodeError(reply.decodeError.message, reply.decodeError.field));
    else this.decodeHere(p);
  }

  /** the jobs of a worker that is gone are decoded on the event loop */
  private handBack(slot: Slot): void {
    const jobs = [...slot.pending.values()];
    slot.pending.clear();
    for (const p of jobs) this.decodeHere(p);
  }

  private decodeHere(p: Pending): void {
    try {
      p.resolve(identifyBody(p.body, p.version, p.window));
    } catch (error) {
      p.reject(error as Error);
    }
  }
}
