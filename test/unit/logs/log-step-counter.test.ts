import { expect } from 'chai';
import fc from 'fast-check';
import {
  LogBucketCounter,
  logErrorShare,
  logMoodTerm,
  logSentiment,
  MAX_OPEN_LOG_BUCKETS,
} from '../../../api-server/src/analysis/logs/log-step-counter.js';

const T0 = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);

describe('log step counting (analytics.md §3.3, §3.2, §4.3)', () => {
  it('counts lines per 15-s bucket by sample time and hands them out once', () => {
    const c = new LogBucketCounter();
    c.observe('info', T0 + 1);
    c.observe('info', T0 + 14_999);
    c.observe('warn', T0 + 2);
    c.observe('error', T0 + 3);
    c.observe('ignored', T0 + 4);
    c.observe('error', T0 + 15_000);
    const step = c.take(T0 / 15_000);
    expect(step).to.include({ info: 2, warn: 1, error: 1, ignored: 1, recentClassified: true, present: true });
    expect(c.observe('info', T0 + 5)).to.equal(false);
    expect(c.droppedLines).to.equal(1);
    expect(c.take(T0 / 15_000 + 1)).to.include({ info: 0, warn: 0, error: 1 });
  });

  it('gates mood on a classified line within 60 s and presence on any line within 5 min', () => {
    const c = new LogBucketCounter();
    const b0 = T0 / 15_000;
    c.observe('warn', T0);
    c.take(b0);
    expect(c.take(b0 + 3).recentClassified).to.equal(true);
    expect(c.take(b0 + 4).recentClassified).to.equal(false);
    expect(c.take(b0 + 19).present).to.equal(true);
    expect(c.take(b0 + 20).present).to.equal(false);
    c.observe('ignored', T0 + 21 * 15_000);
    const s = c.take(b0 + 21);
    expect(s.present).to.equal(true);
    expect(s.recentClassified).to.equal(false);
  });

  it('computes sentiment, its mood term and the error share by hand', () => {
    // ln(1+10) - ln(1 + 2 + 2*3) = ln 11 - ln 9
    expect(logSentiment({ info: 10, warn: 2, error: 3 })).to.be.closeTo(Math.log(11 / 9), 1e-12);
    expect(logSentiment({ info: 0, warn: 0, error: 0 })).to.equal(0);
    expect(logMoodTerm(2)).to.be.closeTo(0.2 * Math.tanh(1), 1e-12);
    expect(logMoodTerm(Number.POSITIVE_INFINITY)).to.equal(0.2);
    expect(logErrorShare({ info: 6, warn: 1, error: 3 })).to.be.closeTo(0.3, 1e-12);
    expect(logErrorShare({ info: 0, warn: 0, error: 0 })).to.equal(0);
  });

  it('bounds open buckets and drops non-finite times', () => {
    const c = new LogBucketCounter();
    expect(c.observe('info', Number.NaN)).to.equal(false);
    for (let i = 0; i < MAX_OPEN_LOG_BUCKETS + 10; i++) c.observe('info', T0 + i * 15_000);
    expect(c.openBuckets()).to.equal(MAX_OPEN_LOG_BUCKETS);
    expect(c.droppedLines).to.equal(11);
  });

  it('round-trips its state through JSON', () => {
    const c = new LogBucketCounter();
    c.observe('warn', T0);
    c.observe('error', T0 + 15_000);
    c.take(T0 / 15_000);
    const d = LogBucketCounter.fromState(JSON.parse(JSON.stringify(c.exportState())));
    expect(d.take(T0 / 15_000 + 1)).to.deep.equal(c.take(T0 / 15_000 + 1));
    expect(() => LogBucketCounter.fromState({ open: 'x' })).to.throw(/open/);
  });

  it('never yields a non-finite sentiment, term or share (non-finite counts read as 0)', () => {
    const n = fc.oneof(fc.double(), fc.nat());
    fc.assert(
      fc.property(n, n, n, (info, warn, error) => {
        const s = logSentiment({ info, warn, error });
        expect(Number.isFinite(s)).to.equal(true);
        expect(Number.isFinite(logMoodTerm(s))).to.equal(true);
        const share = logErrorShare({ info, warn, error });
        expect(share).to.be.within(0, 1);
      }),
    );
  });

  it('accounts for every line: taken or dropped, whatever the times', () => {
    const t = fc.oneof(fc.double(), fc.integer({ min: T0, max: T0 + 600_000 }));
    const cls = fc.constantFrom('ignored' as const, 'info' as const, 'warn' as const, 'error' as const);
    fc.assert(
      fc.property(fc.array(fc.tuple(cls, t), { maxLength: 80, size: 'max' }), (lines) => {
        const c = new LogBucketCounter();
        let accepted = 0;
        for (const [k, time] of lines) if (c.observe(k, time)) accepted++;
        let taken = 0;
        for (let b = T0 / 15_000; b <= (T0 + 600_000) / 15_000; b++) {
          const s = c.take(b);
          taken += s.info + s.warn + s.error + s.ignored;
        }
        c.take(Number.MAX_SAFE_INTEGER); // forgets (drops) whatever is still open
        expect(c.openBuckets()).to.equal(0);
        expect(taken).to.be.at.most(accepted);
        expect(taken + c.droppedLines).to.equal(lines.length);
      }),
    );
  });
});
