import { expect } from 'chai';
import fc from 'fast-check';
import { percentileLinear, SpanWindow, traceRFormA, traceRFormB } from '../../../api-server/src/analysis/traces/span-window.js';

const T0 = 1_700_000_000_000;

function span(startMs: number, durationMs: number, statusCode = 0): { startMs: number; endMs: number; statusCode: number } {
  return { startMs, endMs: startMs + durationMs, statusCode };
}

describe('span window and traceR (analytics.md §4.2)', () => {
  it('flushes at 10 spans: 2 errors, mean 100 ms → traceR B = 0.6·0.2 + 0.4·0.5 = 0.32', () => {
    const w = new SpanWindow();
    const durations = [10, 30, 50, 70, 90, 110, 130, 150, 170, 190];
    let flush = null;
    durations.forEach((d, i) => {
      const f = w.observe(span(T0 + i * 100, d, i < 2 ? 2 : i % 2));
      if (i < 9) expect(f).to.equal(null);
      else flush = f;
    });
    expect(flush).to.not.equal(null);
    const f = flush as unknown as NonNullable<ReturnType<SpanWindow['observe']>>;
    expect(f.spans).to.equal(10);
    expect(f.errors).to.equal(2);
    expect(f.errorRate).to.equal(0.2);
    expect(f.avgMs).to.equal(100);
    expect(f.traceR).to.be.closeTo(0.32, 1e-12);
    // p99: h = 0.99·9 = 8.91 → 170 + 0.91·20 = 188.2
    expect(f.p99Ms).to.be.closeTo(188.2, 1e-9);
    // first flush: baseline = its own p99 → form A = error rate
    expect(f.latencyBaselineMs).to.be.closeTo(188.2, 1e-9);
    expect(f.traceRA).to.be.closeTo(0.2, 1e-12);
    expect(f.timeMs).to.equal(T0 + 900);
    expect(w.heldSpans()).to.equal(0);
  });

  it('computes form A against the EWMA (α 0.1) latency baseline of earlier flushes', () => {
    const w = new SpanWindow();
    [10, 30, 50, 70, 90, 110, 130, 150, 170, 190].forEach((d, i) => w.observe(span(T0 + i, d)));
    let f = null;
    for (let i = 0; i < 10; i++) f = w.observe(span(T0 + 1000 + i, 300, i < 5 ? 2 : 1));
    const second = f as unknown as NonNullable<ReturnType<SpanWindow['observe']>>;
    expect(second.p99Ms).to.equal(300);
    expect(second.latencyBaselineMs).to.be.closeTo(188.2, 1e-9);
    expect(second.traceRA).to.be.closeTo((0.5 * 300) / 188.2, 1e-12);
    expect(second.traceR).to.be.closeTo(0.6 * 0.5 + 0.4 * 1.5, 1e-12);
    let third = null;
    for (let i = 0; i < 10; i++) third = w.observe(span(T0 + 2000 + i, 100));
    // baseline after the second flush: 0.9·188.2 + 0.1·300 = 199.38
    expect(third?.latencyBaselineMs).to.be.closeTo(199.38, 1e-9);
  });

  it('flushes when a span starts ≥ 15 s after the window start, and on flushIfDue', () => {
    const w = new SpanWindow();
    expect(w.observe(span(T0, 40, 2))).to.equal(null);
    expect(w.observe(span(T0 + 14_999, 60))).to.equal(null);
    const f = w.observe(span(T0 + 15_000, 80));
    expect(f?.spans).to.equal(3);
    expect(f?.errorRate).to.be.closeTo(1 / 3, 1e-12);
    expect(f?.avgMs).to.equal(60);
    expect(w.observe(span(T0 + 20_000, 10))).to.equal(null);
    expect(w.flushIfDue(T0 + 29_999)).to.equal(null);
    const quiet = w.flushIfDue(T0 + 30_000);
    expect(quiet?.spans).to.equal(1);
    expect(quiet?.timeMs).to.equal(T0 + 30_000);
    expect(w.flushIfDue(T0 + 60_000)).to.equal(null);
  });

  it('is present for 5 min after a flush', () => {
    const w = new SpanWindow();
    expect(w.isPresent(T0)).to.equal(false);
    for (let i = 0; i < 10; i++) w.observe(span(T0, 5));
    expect(w.isPresent(T0 + 300_000)).to.equal(true);
    expect(w.isPresent(T0 + 300_001)).to.equal(false);
  });

  it('interpolates percentiles linearly between ranks', () => {
    expect(percentileLinear([1, 2, 3, 4], 0.5)).to.equal(2.5);
    expect(percentileLinear([1, 2, 3, 4], 0.99)).to.be.closeTo(3.97, 1e-12);
    expect(percentileLinear([7], 0.99)).to.equal(7);
    expect(percentileLinear([], 0.99)).to.equal(0);
    expect(percentileLinear([1, 2], 2)).to.equal(2);
  });

  it('gives the two traceR forms by hand', () => {
    expect(traceRFormB(0.1, 400)).to.be.closeTo(0.86, 1e-12);
    expect(traceRFormA(0.5, 300, 150)).to.equal(1);
    expect(traceRFormA(0.5, 300, 0)).to.equal(150);
  });

  it('round-trips its state through JSON', () => {
    const w = new SpanWindow();
    for (let i = 0; i < 13; i++) w.observe(span(T0 + i, 10 * i, i % 3 === 0 ? 2 : 0));
    const v = SpanWindow.fromState(JSON.parse(JSON.stringify(w.exportState())));
    expect(v.heldSpans()).to.equal(3);
    for (let i = 0; i < 7; i++) expect(v.observe(span(T0 + 100 + i, 5))).to.deep.equal(w.observe(span(T0 + 100 + i, 5)));
  });

  it('never yields NaN or Infinity; spans with non-finite times are refused', () => {
    const t = fc.oneof(fc.double(), fc.integer({ min: T0, max: T0 + 60_000 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(t, t, fc.integer({ min: -1, max: 3 })), { maxLength: 40, size: 'max' }), t, (spans, now) => {
        const w = new SpanWindow();
        const flushes = spans.map(([s, e, c]) => w.observe({ startMs: s, endMs: e, statusCode: c }));
        flushes.push(w.flushIfDue(now));
        for (const f of flushes) {
          if (f === null) continue;
          for (const v of [f.errorRate, f.avgMs, f.p99Ms, f.traceR, f.traceRA, f.latencyBaselineMs]) {
            expect(Number.isFinite(v)).to.equal(true);
            expect(v).to.be.at.least(0);
          }
          expect(f.p99Ms).to.be.at.most(1e9);
          expect(f.errorRate).to.be.at.most(1);
        }
      }),
    );
  });

  it('keeps p99 between the smallest and largest value', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 50, size: 'max' }), (xs) => {
        const sorted = [...xs].sort((a, b) => a - b);
        const p = percentileLinear(sorted, 0.99);
        expect(p).to.be.at.least(sorted[0]);
        expect(p).to.be.at.most(sorted[sorted.length - 1]);
      }),
    );
  });
});
