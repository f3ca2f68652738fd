import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import type { AnomalyEvent } from '../../../api-server/src/analysis/contract.js';
import { noveltySlabStats } from '../../../api-server/src/analysis/anomaly/novelty-score.js';
import { DERIVED_SERIES, SeriesSet, type SeriesSetState } from '../../../api-server/src/analysis/series/series-set.js';
import { bucketTelemetry } from './workload-generator.js';
import { expectNoveltyLearntAsBefore, type SavedNovelty } from '../../support/novelty-state.js';
import { expectNumbersNear } from '../../support/numbers-near.js';

// The derived series (health_score, stress, fatigue, fused_rupture_index) have no novelty score:
// no chunk, no `novelty` firings, a null novelty slot in their saved state. Their other methods
// fire as on an input series, and consensus counts those (docs/memory.md, "the derived series").

const inUse = (): number => noveltySlabStats().chunksInUse;

/** 300 points of a daily-like cycle with small noise, then `tail` */
function series(tail: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < 320; i++) out.push(10 + Math.sin(i / 9) + 0.05 * Math.sin(i * 1.7));
  return out.concat(tail);
}

/** feeds `values` (one per 15 s) to the series `name` of `set`; the firings' methods per point */
function firingsOf(set: SeriesSet, name: string, values: readonly number[]): { methods: string[]; scores: number[]; consensus: boolean }[] {
  return values.map((y, i) => {
    const p = set.observe(name, y, i * 15, 1_700_000_000 + i * 15)!;
    return { methods: p.firings.map((f) => f.method), scores: p.firings.map((f) => f.score), consensus: p.consensus };
  });
}

describe('derived series: no novelty score', () => {
  it('an input series takes a novelty chunk, the four derived series none', () => {
    const before = inUse();
    const set = new SeriesSet(32);
    for (const name of DERIVED_SERIES) set.observe(name, 1, 0);
    expect(inUse() - before).to.equal(0);
    set.observe('cpu', 1, 0);
    expect(inUse() - before).to.equal(1);
    expect(set.size).to.equal(5);
  });

  it('a level jump: the input series fires novelty with zscore and mad; the derived series the same points without novelty', () => {
    const values = series([30]);
    const set = new SeriesSet(32);
    const input = firingsOf(set, 'cpu', values);
    const derived = firingsOf(set, 'stress', values);
    // the jump (point 320: 30) is far outside the range of every earlier point, [8.9513, 11.0478]:
    // the range expert's d = (30 - 11.0478) / 2.0966 = 9.040 ranges, scored d / (d + 0.1) = 0.9891
    const jump = input[320]!;
    expect(jump.methods).to.deep.equal(['zscore', 'mad', 'seasonal', 'novelty']);
    expect(jump.scores[3]).to.be.closeTo(0.9891, 1e-4);
    expect(derived[320]!.methods).to.deep.equal(jump.methods.filter((m) => m !== 'novelty'));
    expect(derived[320]!.consensus).to.equal(true);
    expect(derived.flatMap((p) => p.methods)).to.not.include('novelty');
  });

  it('the same points: a derived series fires what an input series fires less novelty, with the same scores; consensus is two of the rest; the same forecast and confidence (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 1, maxLength: 60, size: 'max' }),
        fc.integer({ min: 0, max: 3 }),
        (tail, which) => {
          const values = series(tail);
          const set = new SeriesSet(32);
          const input = firingsOf(set, 'latency', values);
          const derived = firingsOf(set, DERIVED_SERIES[which]!, values);
          for (let i = 0; i < values.length; i++) {
            const a = input[i]!;
            const b = derived[i]!;
            const kept = a.methods.map((m, k) => [m, a.scores[k]] as const).filter(([m]) => m !== 'novelty');
            expect(b.methods).to.deep.equal(kept.map(([m]) => m));
            expect(b.scores).to.deep.equal(kept.map(([, s]) => s));
            expect(b.consensus).to.equal(kept.length >= 2);
          }
          const name = DERIVED_SERIES[which]!;
          expect(set.ensemble(name)!.forecast(60)).to.deep.equal(set.ensemble('latency')!.forecast(60));
          expect(set.ensemble(name)!.confidence()).to.equal(set.ensemble('latency')!.confidence());
        },
      ),
      { numRuns: 25 },
    );
  });

  it('saves a null novelty slot for a derived series; a saved novelty state there (states saved before) is not read and takes no chunk', () => {
    const values = series([12, 14, 30, 31, 29]);
    const a = new SeriesSet(32);
    for (let i = 0; i < 322; i++) {
      a.observe('cpu', values[i]!, i * 15, i * 15);
      a.observe('fatigue', values[i]!, i * 15, i * 15);
    }
    const state = JSON.parse(JSON.stringify(a.toJSON())) as SeriesSetState;
    expect(state.series.map(([name, , novelty]) => [name, novelty === null])).to.deep.equal([
      ['cpu', false],
      ['fatigue', true],
    ]);
    // as saved before: the derived series with a novelty state of its own (here the input's)
    const older = structuredClone(state);
    older.series[1]![2] = structuredClone(state.series[0]![2]);
    const before = inUse();
    const b = SeriesSet.fromJSON(older, 32);
    expect(inUse() - before).to.equal(1);
    const c = SeriesSet.fromJSON(state, 32);
    expect(JSON.parse(JSON.stringify(b.toJSON()))).to.deep.equal(state);
    for (let i = 322; i < values.length; i++) {
      for (const name of ['cpu', 'fatigue']) expect(b.observe(name, values[i]!, i * 15, i * 15)).to.deep.equal(c.observe(name, values[i]!, i * 15, i * 15));
    }
  });
});

/**
 * A workload state saved by main 7445a8b, whose derived series still carried a novelty state
 * (the fixture): bucketTelemetry's workload `shop/Deployment/cart` with only its CPU and error
 * rate metrics and its logs, rupturing from bucket 330, saved after the step of bucket 329.
 */
interface SavedWorkload {
  key: string;
  origin: number;
  savedAfterBucket: number;
  ruptureFromBucket: number;
  metrics: string[];
  state: { series: SeriesSetState };
}

describe('derived series: a workload state saved with their novelty states', () => {
  const fixture = JSON.parse(readFileSync(new URL('../../fixtures/series/derived-saved-7445a8b.json', import.meta.url), 'utf8')) as SavedWorkload;

  const feed = (core: AnalysisCoreImpl, b: number): void => {
    const t = bucketTelemetry({ key: fixture.key, withLogs: true, withTraces: false, ruptureFromBucket: fixture.ruptureFromBucket }, b, fixture.origin);
    t.metrics.filter((m) => fixture.metrics.includes(m.name)).forEach((m) => core.observeMetric(m));
    t.logs.forEach((l) => core.observeLog(l));
  };
  const stepAt = (b: number): number => fixture.origin + (b + 1) * 15_000 + 15_000;

  it('is one (its derived series have a saved novelty state)', () => {
    const slots = fixture.state.series.series.filter(([name]) => (DERIVED_SERIES as readonly string[]).includes(name));
    expect(slots.map(([name]) => name).sort()).to.deep.equal([...DERIVED_SERIES].sort());
    for (const [, , novelty] of slots) expect(novelty).to.have.property('v', 2);
  });

  it('restores as the state saved now, which differs from it only in the derived novelty slots and by the values kept as floats: the same snapshots, anomalies, forecasts of the four and state after', () => {
    const a = new AnalysisCoreImpl({ newHexId: () => 'unused' });
    for (let k = 0; k <= fixture.savedAfterBucket; k++) {
      feed(a, k);
      a.step(stepAt(k));
    }
    const now = JSON.parse(JSON.stringify(a.exportWorkload(fixture.key))) as SavedWorkload['state'];
    const before = structuredClone(fixture.state);
    for (const slot of before.series.series) if ((DERIVED_SERIES as readonly string[]).includes(slot[0])) slot[2] = null;
    // the inputs' novelty states: learnt as the fixture's build learnt them but for the profiles'
    // deviations, 16 bits since (ADR 0017); compared apart, then the saved ones put in their place
    const withoutInputNovelty = (s: SavedWorkload['state']): SavedWorkload['state'] => {
      const copy = structuredClone(s);
      for (const slot of copy.series.series) slot[2] = null;
      return copy;
    };
    now.series.series.forEach(([name, , novelty], i) => {
      const was = before.series.series[i]!;
      expect(name).to.equal(was[0]);
      // learnt from the values rounded to floats since (value-precision.ts)
      if (novelty !== null) expectNoveltyLearntAsBefore(novelty as SavedNovelty, was[2] as SavedNovelty, name, true);
      else expect(was[2], name).to.equal(null);
    });
    // the snapshot's confidence reads the models' residuals, kept as 20-point block sums since
    // the state was saved (error-slots.ts): the windows differ by up to 20 points, so it moves a
    // little; everything else the state holds is as saved
    const confidence = (s: SavedWorkload['state']): number => (s as unknown as { snapshot: { confidence: number } }).snapshot.confidence;
    expect(confidence(now)).to.be.closeTo(confidence(before), 1e-3);
    (now as unknown as { snapshot: { confidence: number } }).snapshot.confidence = confidence(before);
    // the series keep their values as floats since (value-precision.ts): the saved points are the
    // fixture's rounded to floats, exactly; every other number of the state (trends, envelopes,
    // climbs, the snapshot) within 1e-4 of what the doubles gave
    const points = (s: SavedWorkload['state']): unknown => s.series.series.map(([name, e]) => [name, (e as { points: [number, number][] }).points]);
    const rounded = before.series.series.map(([name, e]) => [name, (e as { points: [number, number][] }).points.map(([x, y]) => [x, Math.fround(y)])]);
    expect(points(now)).to.deep.equal(rounded);
    expectNumbersNear(withoutInputNovelty(now), withoutInputNovelty(before), 1e-4, 1e-12);
    // restoring replays each series' last 300 points, so a restored workload is compared with
    // another restored one (not with one analysed all along, whose ensembles saw every point)
    const hexIds = (): (() => string) => {
      let id = 0;
      return () => (id++).toString(16).padStart(12, '0');
    };
    const b = new AnalysisCoreImpl({ newHexId: hexIds() });
    b.importWorkload(fixture.key, structuredClone(fixture.state));
    // the fixture without its derived novelty states: what a build saves now, the inputs' deviations aside
    const c = new AnalysisCoreImpl({ newHexId: hexIds() });
    c.importWorkload(fixture.key, before);
    const anomalies: AnomalyEvent[] = [];
    for (let k = fixture.savedAfterBucket + 1; k < fixture.savedAfterBucket + 41; k++) {
      feed(b, k);
      feed(c, k);
      const outB = b.step(stepAt(k));
      expect(outB).to.deep.equal(c.step(stepAt(k)));
      anomalies.push(...outB.anomalies);
    }
    for (const metric of ['cpu_percent', ...DERIVED_SERIES]) {
      const f = b.forecast(fixture.key, metric, 60);
      expect(f, metric).to.not.equal(undefined);
      expect(f).to.deep.equal(c.forecast(fixture.key, metric, 60));
    }
    const saved = JSON.parse(JSON.stringify(b.exportWorkload(fixture.key))) as { series: SeriesSetState };
    expect(saved).to.deep.equal(JSON.parse(JSON.stringify(c.exportWorkload(fixture.key))));
    for (const [name, , novelty] of saved.series.series) expect(novelty === null, name).to.equal((DERIVED_SERIES as readonly string[]).includes(name));
    // the rupture's anomalies: derived series fire, never `novelty`; the inputs still do
    const derived = anomalies.filter((e) => (DERIVED_SERIES as readonly string[]).includes(e.metric));
    expect(derived.length).to.be.greaterThan(0);
    expect(derived.filter((e) => e.method === 'novelty')).to.have.length(0);
    expect(anomalies.filter((e) => e.method === 'novelty' && !(DERIVED_SERIES as readonly string[]).includes(e.metric)).length).to.be.greaterThan(0);
  });
});
