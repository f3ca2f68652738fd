/**
 * A remote-write decode worker thread: takes a job (the body as sent, the protocol version, the
 * time window), answers with its identified samples (typed arrays transferred, not copied) or
 * with the DecodeError's message and field. Started by RemoteWriteDecodePool.
 */
import { parentPort } from 'node:worker_threads';
import { DecodeError } from '../../model/records.js';
import { identifyBody } from './remote-write-identify.js';
import type { DecodeJob, DecodeReply } from './remote-write-decode-pool.js';

const port = parentPort;
if (port === null) throw new Error('remote-write-decode-worker runs as a worker thread');

port.on('message', (job: DecodeJob) => {
  let reply: DecodeReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const ids = identifyBody(Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength), job.version, job.window);
    reply = { id: job.id, ids };
    transfer = [ids.refs.buffer, ids.values.buffer, ids.times.buffer, ids.starts.buffer] as ArrayBuffer[];
  } catch (error) {
    reply =
      error instanceof DecodeError
        ? { id: job.id, decodeError: { message: error.message, field: error.field } }
        : { id: job.id, failure: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply, transfer);
});
