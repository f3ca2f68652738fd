import { expect } from 'chai';
import fc from 'fast-check';
import { HttpError } from '../../../api-server/src/model/http-errors.js';
import { MAX_HORIZON_MINUTES, horizonParam, limitParam, queryString, sinceParam } from '../../../api-server/src/http/query.js';
import { contextFor, withQuery } from './koa-context.js';

/** the 400 a query parser throws, or undefined when it returned */
function refusal(parse: () => unknown): HttpError | undefined {
  try {
    parse();
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

function expectQueryRefusal(error: HttpError | undefined, field: string): void {
  expect(error, `a 400 naming ${field}`).to.be.instanceOf(HttpError);
  expect(error!.status).to.equal(400);
  expect(error!.body()).to.include({ code: 'invalid_query', field });
  expect(error!.message).to.match(new RegExp(`^${field} must be`));
}

describe('http/query: limit, since, horizon', () => {
  describe('limitParam', () => {
    it('reads a positive integer, clamps it to 1000, and falls back when absent', () => {
      expect(limitParam(contextFor('/list?limit=25'))).to.equal(25);
      expect(limitParam(contextFor('/list?limit=1000'))).to.equal(1000);
      expect(limitParam(contextFor('/list?limit=5000'))).to.equal(1000);
      expect(limitParam(contextFor('/list?limit=007'))).to.equal(7);
      expect(limitParam(contextFor('/list'))).to.equal(1000);
      expect(limitParam(contextFor('/list'), 50)).to.equal(50);
      expect(limitParam(contextFor('/list?limit=3&limit=x'))).to.equal(3); // the first of a repeated parameter
    });

    it('refuses 0, negatives, fractions, exponents, blanks and words with a 400 naming limit', () => {
      for (const raw of ['0', '-1', '1.5', '1e3', '', ' 5', 'ten', '0x10']) {
        const error = refusal(() => limitParam(contextFor(withQuery('limit', raw))));
        expectQueryRefusal(error, 'limit');
        expect(error!.message).to.include(JSON.stringify(raw));
      }
    });

    it('for any value either answers an integer in [1, 1000] or a 400 naming limit (property)', () => {
      fc.assert(
        fc.property(fc.oneof(fc.string(), fc.nat().map(String), fc.integer().map(String)), (raw) => {
          const ctx = contextFor(withQuery('limit', raw));
          const error = refusal(() => limitParam(ctx));
          if (error !== undefined) return expectQueryRefusal(error, 'limit');
          const n = limitParam(ctx);
          expect(Number.isInteger(n) && n >= 1 && n <= 1000, `${JSON.stringify(raw)} → ${n}`).to.equal(true);
        }),
        { numRuns: 500 },
      );
    });
  });

  describe('sinceParam', () => {
    it('reads RFC 3339 date-times with Z or an offset, fractions of a second, lower-case t/z', () => {
      expect(sinceParam(contextFor(withQuery('since', '2026-11-27T00:00:00Z')))).to.equal(Date.UTC(2026, 10, 27));
      expect(sinceParam(contextFor(withQuery('since', '2026-11-27T02:30:00+02:30')))).to.equal(Date.UTC(2026, 10, 27));
      expect(sinceParam(contextFor(withQuery('since', '2026-11-27T00:00:00.250Z')))).to.equal(Date.UTC(2026, 10, 27) + 250);
      expect(sinceParam(contextFor(withQuery('since', '2024-02-29t12:00:00z')))).to.equal(Date.UTC(2024, 1, 29, 12));
      expect(sinceParam(contextFor('/list'))).to.equal(undefined);
    });

    it('refuses dates, epoch numbers, missing zones and impossible calendar dates with a 400 naming since', () => {
      for (const raw of [
        '2026-11-27',
        '1764201600000',
        '2026-11-27T00:00:00',
        '2026-11-27 00:00:00Z',
        '2026-13-01T00:00:00Z',
        '2026-02-30T00:00:00Z', // no 30 February (Date.parse would read 2 March)
        '2025-02-29T00:00:00Z', // 2025 is no leap year
        '2026-04-31T00:00:00Z',
        '2026-01-01T24:00:00Z', // RFC 3339 hours end at 23 (Date.parse would read the next day)
        '2026-01-01T23:60:00Z',
        '',
      ]) {
        expectQueryRefusal(refusal(() => sinceParam(contextFor(withQuery('since', raw)))), 'since');
      }
    });

    it('for any string either answers the instant the string names or a 400 naming since (property)', () => {
      const dateTime = fc
        .record({
          y: fc.integer({ min: 1970, max: 2100 }),
          mo: fc.integer({ min: 0, max: 13 }),
          d: fc.integer({ min: 0, max: 32 }),
          h: fc.integer({ min: 0, max: 25 }),
          mi: fc.integer({ min: 0, max: 60 }),
          s: fc.integer({ min: 0, max: 60 }),
        })
        .map(({ y, mo, d, h, mi, s }) => {
          const p = (n: number) => String(n).padStart(2, '0');
          return { text: `${y}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}Z`, y, mo, d, h, mi, s };
        });
      fc.assert(
        fc.property(dateTime, ({ text, y, mo, d, h, mi, s }) => {
          const error = refusal(() => sinceParam(contextFor(withQuery('since', text))));
          const real = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
          const exists = real.getUTCMonth() === mo - 1 && real.getUTCDate() === d && real.getUTCHours() === h && real.getUTCMinutes() === mi && real.getUTCSeconds() === s;
          if (!exists) return expectQueryRefusal(error, 'since');
          expect(error, text).to.equal(undefined);
          expect(sinceParam(contextFor(withQuery('since', text)))).to.equal(real.getTime());
        }),
        { numRuns: 1000 },
      );
      fc.assert(
        fc.property(fc.string(), (raw) => {
          const error = refusal(() => sinceParam(contextFor(withQuery('since', raw))));
          if (error !== undefined) expectQueryRefusal(error, 'since');
        }),
        { numRuns: 500 },
      );
    });
  });

  describe('horizonParam', () => {
    it('reads whole minutes from a number or a digit string, default 60, clamped to 10080', () => {
      expect(horizonParam(undefined, 'horizon')).to.equal(60);
      expect(horizonParam(null, 'horizon')).to.equal(60);
      expect(horizonParam(30, 'horizon')).to.equal(30);
      expect(horizonParam('120', 'horizon')).to.equal(120);
      expect(horizonParam(20_000, 'horizon')).to.equal(MAX_HORIZON_MINUTES);
      expect(MAX_HORIZON_MINUTES).to.equal(7 * 24 * 60);
    });

    it('refuses 0, fractions, negatives, words and other types with a 400 naming the given field', () => {
      for (const raw of [0, -5, 1.5, Number.NaN, Infinity, '', '1.5', '-5', 'soon', true, [60], { m: 60 }]) {
        expectQueryRefusal(refusal(() => horizonParam(raw, 'horizon_minutes')), 'horizon_minutes');
      }
    });

    it('for any JSON value either answers minutes in [1, 10080] or a 400 naming the field (property)', () => {
      fc.assert(
        fc.property(fc.oneof(fc.jsonValue(), fc.double(), fc.integer()), (raw) => {
          const error = refusal(() => horizonParam(raw, 'horizon'));
          if (error !== undefined) return expectQueryRefusal(error, 'horizon');
          const n = horizonParam(raw, 'horizon');
          expect(Number.isInteger(n) && n >= 1 && n <= MAX_HORIZON_MINUTES).to.equal(true);
        }),
        { numRuns: 500 },
      );
    });
  });

  it('queryString answers the first value of a parameter, undefined when absent', () => {
    expect(queryString(contextFor('/list?workload=shop%2Fcart&workload=x'), 'workload')).to.equal('shop/cart');
    expect(queryString(contextFor('/list'), 'workload')).to.equal(undefined);
  });
});
