/**
 * The high-water guard on the ingest path (standalone): while the memory guard refuses new
 * workloads, the records of workloads the analysis does not know are dropped and the rest goes on
 * to the inner sink; the outcome is then `memory_high_water` (HTTP 429, gRPC RESOURCE_EXHAUSTED),
 * naming the refused workloads. Below the mark a batch passes untouched.
 */
import type { DecodedBatch } from '../model/records.js';
import type { IngestOutcome, IngestSink } from './ingest-sink.js';

export interface AdmissionGate {
  refusingNewWorkloads(): boolean;
}

/** what was refused of one batch */
export interface Refusal {
  /** the new workloads whose records were dropped, in first-seen order */
  workloads: string[];
  records: number;
}

export interface AdmissionPorts {
  /** true when the analysis already holds this workload */
  known(workload: string): boolean;
  refused(refusal: Refusal): void;
}

export class AdmissionSink implements IngestSink {
  constructor(
    private readonly inner: IngestSink,
    private readonly gate: AdmissionGate,
    private readonly ports: AdmissionPorts,
  ) {}

  async accept(batch: DecodedBatch): Promise<IngestOutcome> {
    if (!this.gate.refusingNewWorkloads()) return this.inner.accept(batch);
    const verdicts = new Map<string, boolean>();
    const admitted = (workload: string): boolean => {
      let ok = verdicts.get(workload);
      if (ok === undefined) {
        ok = this.ports.known(workload);
        verdicts.set(workload, ok);
      }
      return ok;
    };
    const metrics = batch.metrics.filter((r) => admitted(r.workload));
    const logs = batch.logs.filter((r) => admitted(r.workload));
    const spans = batch.spans.filter((r) => admitted(r.workload));
    const records = batch.metrics.length - metrics.length + (batch.logs.length - logs.length) + (batch.spans.length - spans.length);
    if (records === 0) return this.inner.accept(batch);
    const kept: DecodedBatch = { metrics, logs, spans, rejected: batch.rejected };
    const outcome = await this.inner.accept(kept);
    if (outcome !== 'accepted') return outcome;
    const workloads = [...verdicts].filter(([, ok]) => !ok).map(([w]) => w);
    this.ports.refused({ workloads, records });
    return 'memory_high_water';
  }
}
