import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import type { ExplainRecord, WorkloadSnapshot } from '../../../api-server/src/analysis/contract.js';
import { healthCeiling } from '../../../api-server/src/analysis/bands.js';
import { bucketTelemetry, type GeneratorOptions } from './workload-generator.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);
const LEAK_FROM = 120;
const BUCKETS = 280;

function hexIds(): () => string {
  let n = 0;
  return () => (n++).toString(16).padStart(12, '0');
}

/** memory of the leaking workload: 0.5 until bucket 120, then +0.003 per bucket (+72 %/h), capped at 1 */
const leakMemory = (b: number): number => Math.min(1, 0.5 + 0.003 * Math.max(0, b - LEAK_FROM));

describe('diagnosis end to end: a memory leak through the analysis core', function () {
  this.timeout(120_000);
  const leak: GeneratorOptions = { key: 'shop/Deployment/leaky', withLogs: true, withTraces: true };
  const core = new AnalysisCoreImpl({ newHexId: hexIds() });
  const snapshots: WorkloadSnapshot[] = [];
  /** the last step with an open rupture: its record and snapshot, and its bucket */
  let open: { record: ExplainRecord; snapshot: WorkloadSnapshot; bucket: number } | null = null;

  before(() => {
    for (let b = 0; b < BUCKETS; b++) {
      const t = bucketTelemetry(leak, b, ORIGIN);
      for (const m of t.metrics) {
        core.observeMetric(m.name === 'process.memory.utilization' ? { ...m, value: leakMemory(b) } : m);
      }
      t.logs.forEach((l) => core.observeLog(l));
      t.spans.forEach((s) => core.observeSpan(s));
      const out = core.step(ORIGIN + (b + 1) * 15_000 + 15_000);
      const s = out.snapshots.find((x) => x.key === leak.key);
      if (s !== undefined) snapshots.push(s);
      const r = out.ruptures.find((x) => x.workload === leak.key && x.closedAtMs === null);
      if (r !== undefined && s !== undefined) open = { record: r, snapshot: s, bucket: b };
    }
  });

  it('names memory as the top factor, in plain units, and recommends a rolling restart', () => {
    expect(open, 'an open rupture').to.not.equal(null);
    const { record, bucket } = open!;
    expect(record.topFactor).to.equal('memory');
    expect(record.diagnosis?.kind).to.equal('memory-leak');
    // the trough is 0.5 at bucket 120 (memory is flat before), now 0.5 + 0.003·(b − 120), 0.003 per 15 s = 72 %/h
    const now = Math.round(100 * leakMemory(bucket));
    const minutes = Math.round(((bucket - LEAK_FROM) * 15) / 60);
    const line = `memory 50 % → ${now} % in ${minutes} min, +72 %/h`;
    expect(record.diagnosis?.summary).to.equal(line);
    expect(record.recommendation?.type).to.equal('restart');
    expect(record.narrative).to.contain(`Diagnosis: memory leak — ${line}.`);
    expect(record.narrative).to.contain('Recommended action: Rolling restart of shop/Deployment/leaky');
  });

  it('one forecast: ttf_seconds, the narrative ETA and critical_eta_minutes agree', () => {
    const { record, snapshot, bucket } = open!;
    expect(record.etaBasis).to.equal('input-trend');
    expect(snapshot.healthForecast.criticalEtaMinutes).to.equal(Math.floor(record.ttfSeconds / 60));
    // what is left to 100 % at 2e-4 /s (0.003 per 15 s), within 20 % (the 5-min slope lags a little)
    const expected = (1 - leakMemory(bucket)) / 2e-4;
    expect(record.ttfSeconds).to.be.within(expected * 0.8, expected * 1.2);
    expect(record.narrative).to.match(new RegExp(`Estimated time to failure: ${Math.floor(record.ttfSeconds / 60)} minutes?\\.`));
  });

  it('memory held above ≈ 87 % builds fatigue; health never reads above its band ceiling', () => {
    const early = snapshots[LEAK_FROM + 100]!; // memory 0.8: no fatigue from memory yet
    const late = snapshots.at(-1)!; // memory 0.977
    expect(late.signals.fatigue.value).to.be.above(early.signals.fatigue.value);
    expect(late.signals.fatigue.value).to.be.above(0.5);
    for (const s of snapshots) expect(s.signals.health_score.value).to.be.at.most(healthCeiling(s.state));
  });
});
