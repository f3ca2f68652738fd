/**
 * Records of the history topic (cluster mode): what an owner's analyzer tick stored for one
 * workload that the other replicas' stores need too — KPI history points (every tier the tick
 * rolled up), explain records refreshed by the tick and fingerprints recorded by it. Key: the
 * workload; partition: the workload's. Every replica (the owner too) stores them in its own
 * LevelDB, so `/history/…` and `/explain/…` answer alike on every replica and survive a failover.
 * The topic is time-retained (cleanup.policy=delete) as long as KPI history is kept.
 */
import { z } from 'zod';
import type { ExplainRecord, Fingerprint } from '../analysis/contract.js';
import { KPI_HISTORY_SIGNALS, type KpiSignalName } from '../model/signals.js';
import type { ReplicatedWrite, TickWrite } from '../storage/analysis-store.js';
import type { OutgoingRecord } from './serial-producer.js';
import { partitionOf } from './workload-partition.js';

const finite = z.number().refine(Number.isFinite, 'must be finite');

const kpiPoint = z.object({
  t: finite,
  fused_r: finite,
  health: finite,
  ...(Object.fromEntries(KPI_HISTORY_SIGNALS.map((s) => [s, finite])) as Record<KpiSignalName, typeof finite>),
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// the analysis's own records, checked on the fields the store keys and orders them by
const explainRecord = z.custom<ExplainRecord>(
  (v) => isObject(v) && typeof v['ruptureId'] === 'string' && typeof v['workload'] === 'string' && typeof v['updatedAtMs'] === 'number',
  'must be an explain record',
);
const fingerprint = z.custom<Fingerprint>((v) => isObject(v) && typeof v['id'] === 'string' && typeof v['workload'] === 'string' && Array.isArray(v['vector']), 'must be a fingerprint');

const historyValue = z.object({
  history: z.array(z.object({ tier: z.enum(['raw', '1m', '5m', '1h']), point: kpiPoint })),
  ruptures: z.array(explainRecord),
  fingerprints: z.array(fingerprint),
});

/** One record per workload of the tick's write that `drives` accepts (the owner's workloads). */
export function historyRecords(topic: string, partitions: number, w: TickWrite, drives: (workload: string) => boolean): OutgoingRecord[] {
  const by = new Map<string, { history: { tier: string; point: unknown }[]; ruptures: ExplainRecord[]; fingerprints: Fingerprint[] }>();
  const of = (workload: string) => {
    let entry = by.get(workload);
    if (entry === undefined) {
      entry = { history: [], ruptures: [], fingerprints: [] };
      by.set(workload, entry);
    }
    return entry;
  };
  for (const h of w.history) if (drives(h.key)) of(h.key).history.push({ tier: h.tier, point: h.point });
  for (const r of w.ruptures) if (drives(r.workload)) of(r.workload).ruptures.push(r);
  for (const f of w.fingerprints) if (drives(f.workload)) of(f.workload).fingerprints.push(f);
  return [...by].map(([workload, value]) => ({ topic, partition: partitionOf(workload, partitions), key: workload, value: JSON.stringify(value) }));
}

/** Adds one history record to `into`; false when the record is not a readable one. */
export function addHistoryRecord(into: ReplicatedWrite, workload: string, value: string): boolean {
  let doc: unknown;
  try {
    doc = JSON.parse(value) as unknown;
  } catch {
    return false;
  }
  const parsed = historyValue.safeParse(doc);
  if (!parsed.success) return false;
  for (const h of parsed.data.history) into.history.push({ tier: h.tier, key: workload, point: h.point });
  into.ruptures.push(...parsed.data.ruptures);
  into.fingerprints.push(...parsed.data.fingerprints);
  return true;
}
