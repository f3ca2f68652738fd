import { expect } from 'chai';
import {
  NoveltyScore,
  allocateNovelty,
  isNoveltyLive,
  noveltyExpertScores,
  noveltyFromJSON,
  noveltySlabStats,
  noveltyToJSON,
  observeNovelty,
  releaseNovelty,
} from '../../../api-server/src/analysis/anomaly/novelty-score.js';
import { SLAB_PAGE_CHUNKS } from '../../../api-server/src/analysis/anomaly/novelty-slab.js';

const T0 = 1_700_000_000; // epoch seconds

/** a deterministic generator in [0, 1) */
function rng(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Point {
  y: number;
  at: number;
  median: number;
}

/** series `k`: a mix of levels, noise, runs, steps and spikes, different for each k */
function series(k: number, points: number): Point[] {
  const r = rng(1000 + k);
  const out: Point[] = [];
  let held = 0;
  for (let i = 0; i < points; i += 1) {
    if (r() < 0.03) held = Math.round(r() * 5);
    const kind = k % 4;
    const y =
      kind === 0 ? Math.sin(i / (10 + k)) + 0.1 * r() : kind === 1 ? i % 2 : kind === 2 ? held + (i > points - 50 ? 3 : 0) : (i % 288 < 144 ? 1 : 0) + 1e-3 * r() + (i === points - 20 ? 4 : 0);
    out.push({ y, at: T0 + i * (kind === 3 ? 300 : 15 + k), median: i < 300 || i % 5 === 0 ? NaN : 0.5 });
  }
  return out;
}

/** the scores and expert scores of `points` in chunk `id` */
function run(id: number, points: Point[]): number[] {
  const out: number[] = [];
  for (const p of points) {
    out.push(observeNovelty(id, p.y, p.at, p.median));
    const e = noveltyExpertScores(id);
    out.push(e.range, e.dispersion, e.day, e.week, e.context, e.run);
  }
  return out;
}

const freshState = (): string => {
  const id = allocateNovelty();
  const json = JSON.stringify(noveltyToJSON(id));
  releaseNovelty(id);
  return json;
};

describe('novelty slab (shared chunks of novelty state)', () => {
  it('interleaving the observations of many chunks gives what observing each alone gives', () => {
    const n = 12;
    const data = Array.from({ length: n }, (_, k) => series(k, 700));
    const alone = data.map((points) => {
      const id = allocateNovelty();
      const out = run(id, points);
      const json = JSON.stringify(noveltyToJSON(id));
      releaseNovelty(id);
      return { out, json };
    });
    const ids = data.map(() => allocateNovelty());
    const together: number[][] = data.map(() => []);
    for (let i = 0; i < 700; i += 1) {
      for (let k = 0; k < n; k += 1) {
        const p = (data[k] as Point[])[i] as Point;
        const id = ids[k] as number;
        (together[k] as number[]).push(observeNovelty(id, p.y, p.at, p.median));
        const e = noveltyExpertScores(id);
        (together[k] as number[]).push(e.range, e.dispersion, e.day, e.week, e.context, e.run);
      }
    }
    for (let k = 0; k < n; k += 1) {
      expect(together[k]).to.deep.equal(alone[k]?.out, `series ${k}`);
      expect(JSON.stringify(noveltyToJSON(ids[k] as number))).to.equal(alone[k]?.json, `series ${k}`);
    }
    // not vacuous: the series score
    expect(alone.filter(({ out }) => out.some((x, j) => j % 7 === 0 && x > 0))).to.have.length.of.at.least(n / 2);
    ids.forEach(releaseNovelty);
  });

  it('a released chunk, reallocated, behaves exactly as a fresh one', () => {
    const points = series(0, 500);
    const fresh = allocateNovelty();
    const expected = run(fresh, points);
    const dirty = allocateNovelty();
    run(dirty, series(5, 900)); // every part of the chunk written: profiles, blocks, ring, context table
    releaseNovelty(dirty);
    const again = allocateNovelty();
    expect(again).to.equal(dirty);
    expect(JSON.stringify(noveltyToJSON(again))).to.equal(freshState());
    expect(run(again, points)).to.deep.equal(expected);
    // and so does a wrapper's
    const wrapped = new NoveltyScore();
    expect(points.map((p) => wrapped.observe(p.y, p.at, p.median))).to.deep.equal(expected.filter((_, j) => j % 7 === 0));
    releaseNovelty(fresh);
    releaseNovelty(again);
  });

  it('toJSON then noveltyFromJSON continues exactly, also in a reused dirty chunk; a bad state there is fresh', () => {
    const points = series(2, 900);
    const whole = allocateNovelty();
    const part = allocateNovelty();
    const expected = run(whole, points);
    const first = run(part, points.slice(0, 450));
    const saved = JSON.parse(JSON.stringify(noveltyToJSON(part))) as unknown;
    releaseNovelty(part);
    const dirty = allocateNovelty();
    run(dirty, series(7, 600));
    releaseNovelty(dirty);
    const restored = noveltyFromJSON(saved);
    expect(restored).to.equal(dirty);
    expect(noveltyToJSON(restored)).to.deep.equal(saved);
    expect([...first, ...run(restored, points.slice(450))]).to.deep.equal(expected);
    // the wrapper restores the same
    expect(JSON.stringify(NoveltyScore.fromJSON(saved).toJSON())).to.equal(JSON.stringify(saved));

    releaseNovelty(restored);
    const notOurs = noveltyFromJSON({ ...(saved as Record<string, unknown>), scalars: [1, 2] });
    expect(notOurs).to.equal(restored);
    expect(JSON.stringify(noveltyToJSON(notOurs))).to.equal(freshState());
    releaseNovelty(notOurs);
    // a state whose context ring is damaged is refused after it was copied in: the chunk is fresh all the same
    const ctx = Buffer.from((saved as { contexts: string }).contexts, 'base64');
    ctx.writeInt32LE(99, ctx.byteLength - 4);
    const damaged = noveltyFromJSON({ ...(saved as Record<string, unknown>), contexts: ctx.toString('base64') });
    expect(JSON.stringify(noveltyToJSON(damaged))).to.equal(freshState());
    releaseNovelty(damaged);
    // counters that are not whole numbers in their ranges (they index rings as int32) are refused too
    const scalars = (saved as { scalars: (number | null)[] }).scalars;
    for (const [k, bad] of [
      [0, 2 ** 40],
      [0, 1.5],
      [0, -1],
    ] as const) {
      const wrong = [...scalars];
      wrong[k] = bad;
      const id = noveltyFromJSON({ ...(saved as Record<string, unknown>), scalars: wrong });
      expect(JSON.stringify(noveltyToJSON(id)), `scalar ${k} = ${bad}`).to.equal(freshState());
      releaseNovelty(id);
    }
    releaseNovelty(whole);
  });

  it('reuses released ids (last released, first reused) and refuses to release one twice', () => {
    const a = allocateNovelty();
    const b = allocateNovelty();
    expect(a).to.not.equal(b);
    releaseNovelty(a);
    releaseNovelty(b);
    expect(isNoveltyLive(a)).to.equal(false);
    expect(() => releaseNovelty(b)).to.throw(RangeError);
    expect(() => releaseNovelty(-1)).to.throw(RangeError);
    expect(() => releaseNovelty(1.5)).to.throw(RangeError);
    expect(allocateNovelty()).to.equal(b);
    expect(allocateNovelty()).to.equal(a);
    expect(isNoveltyLive(a)).to.equal(true);
    releaseNovelty(a);
    releaseNovelty(b);
  });

  it('holds more than one page of chunks, each independent', () => {
    const count = 2 * SLAB_PAGE_CHUNKS + 17;
    const ids = Array.from({ length: count }, () => allocateNovelty());
    expect(new Set(ids).size).to.equal(count);
    expect(noveltySlabStats().pages).to.be.at.least(3);
    expect(new Set(ids.map((id) => id >>> 8)).size).to.be.at.least(3);
    const data = [series(0, 330), series(1, 330), series(3, 330)];
    for (let i = 0; i < 330; i += 1) {
      ids.forEach((id, j) => {
        const p = (data[j % 3] as Point[])[i] as Point;
        observeNovelty(id, p.y + j, p.at, p.median + j); // an offset per chunk: a different state each
      });
    }
    for (const j of [0, 1, 2, SLAB_PAGE_CHUNKS - 1, SLAB_PAGE_CHUNKS, SLAB_PAGE_CHUNKS + 1, count - 1]) {
      const lone = allocateNovelty();
      for (const p of data[j % 3] as Point[]) observeNovelty(lone, p.y + j, p.at, p.median + j);
      expect(noveltyToJSON(ids[j] as number)).to.deep.equal(noveltyToJSON(lone), `chunk ${j}`);
      releaseNovelty(lone);
    }
    const before = noveltySlabStats().chunksInUse;
    ids.forEach(releaseNovelty);
    expect(noveltySlabStats().chunksInUse).to.equal(before - count);
  });
});
