/**
 * What the evaluation reads back from the service while it runs: band events (GET /events, the
 * JSON form, read after every chunk and continued from the last id), critical anomalies per
 * workload (GET /anomalies), actions (GET /actions), and the checkpoint reads of a failing
 * workload (rupture snapshot, explain narrative, its actions).
 */
import { KEPT_EVENTS } from '../../api-server/src/events/event-hub.js';
import type { ServiceDriver } from './service-driver.js';
import { NAMESPACE } from './otlp-bodies.js';

export interface BandEventRow {
  seq: number;
  type: 'warning' | 'critical' | 'emergency' | 'recovered';
  workload: string;
  fusedR: number;
  timeMs: number;
}

export interface ActionRow {
  id: string;
  workload: string;
  type: string;
  createdAtMs: number;
  fusedR: number;
}

export interface Checkpoint {
  /** minutes before the failure point (0 = at it) */
  minutesBefore: number;
  rupture: unknown;
  narrative: unknown;
  actions: unknown[];
}

export class Collector {
  readonly events: BandEventRow[] = [];
  readonly actions = new Map<string, ActionRow>();
  /** critical anomalies per workload name, and per metric */
  readonly criticalAnomalies = new Map<string, Map<string, number>>();
  /** anomaly reads that hit the 1000-row limit (counts are then lower bounds) */
  anomalyReadsSaturated = 0;
  /** reads after which the 300-event ring may have dropped band events (it held only new ones) */
  eventsLost = 0;
  private lastSeq = 0;

  constructor(private readonly svc: ServiceDriver) {}

  async readEvents(): Promise<void> {
    const r = await this.svc.get('/events?limit=1000');
    const list = (r.body as { events: { id: string; type: BandEventRow['type']; workload: string; fused_r: number; ts: string }[] }).events;
    const fresh = list
      .map((e) => ({ seq: Number(e.id.replace(/^ev_/, '')), type: e.type, workload: e.workload.split('/')[2] ?? e.workload, fusedR: e.fused_r, timeMs: Date.parse(e.ts) }))
      .filter((e) => e.seq > this.lastSeq)
      .sort((a, b) => a.seq - b.seq);
    // the sequence is the outbox's, shared with other events: a gap is only a loss when the ring was full of new ones
    if (fresh.length >= KEPT_EVENTS && fresh[0]!.seq !== this.lastSeq + 1) this.eventsLost += 1;
    for (const e of fresh) this.events.push(e);
    if (fresh.length > 0) this.lastSeq = fresh[fresh.length - 1]!.seq;
  }

  /**
   * The critical anomalies of each workload since `sinceMs`, one read per workload and chunk: a
   * read of all workloads at once hit the 1000-row limit whenever noisy series filled it with
   * warnings, and the critical ones past the limit went uncounted.
   */
  async readAnomalies(sinceMs: number, names: readonly string[]): Promise<void> {
    const since = new Date(sinceMs).toISOString();
    for (const name of names) {
      const r = await this.svc.get(`/anomalies/${NAMESPACE}/Deployment/${name}?since=${since}&limit=1000`);
      if (r.status === 404) continue; // nothing of it ingested yet
      const list = (r.body as { anomalies: { severity: string; metric: string; workload: { name: string } }[] }).anomalies;
      if (list.length >= 1000) this.anomalyReadsSaturated += 1;
      for (const a of list) {
        if (a.severity !== 'critical') continue;
        let perMetric = this.criticalAnomalies.get(a.workload.name);
        if (perMetric === undefined) this.criticalAnomalies.set(a.workload.name, (perMetric = new Map()));
        perMetric.set(a.metric, (perMetric.get(a.metric) ?? 0) + 1);
      }
    }
  }

  async readActions(): Promise<void> {
    const r = await this.svc.get('/actions?limit=1000');
    for (const a of (r.body as { actions: { id: string; workload: string; type: string; created_at: string; fused_rupture_index: number }[] }).actions) {
      if (this.actions.has(a.id)) continue;
      this.actions.set(a.id, { id: a.id, workload: a.workload.split('/')[2] ?? a.workload, type: a.type, createdAtMs: Date.parse(a.created_at), fusedR: a.fused_rupture_index });
    }
  }

  async checkpoint(name: string, minutesBefore: number): Promise<Checkpoint> {
    const rupture = (await this.svc.get(`/rupture/${NAMESPACE}/Deployment/${name}`)).body;
    const key = encodeURIComponent(`${NAMESPACE}/Deployment/${name}`);
    const explain = await this.svc.get(`/explain/${key}/narrative`);
    const actions = ((await this.svc.get('/actions?limit=1000')).body as { actions: { workload: string }[] }).actions.filter((a) => a.workload.endsWith(`/${name}`));
    return { minutesBefore, rupture, narrative: explain.status === 200 ? explain.body : null, actions };
  }
}
