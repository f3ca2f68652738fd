import { expect } from 'chai';
import { axisSpace, axisTemplate, historyRange } from '../../../dashboard/src/model/time-range.js';

const NOW = Date.parse('2026-11-27T01:00:00Z');
const HOUR = 3_600_000;

describe('dashboard history chart time range', () => {
  it('one point: the selected hour ending now, not years around the point', () => {
    expect(historyRange([NOW - 60_000], HOUR, NOW)).to.deep.equal([(NOW - HOUR) / 1000, NOW / 1000]);
  });

  it('a few points and none: still the span ending now', () => {
    expect(historyRange([NOW - 30 * 60_000, NOW - 15 * 60_000, NOW - 15_000], 6 * HOUR, NOW)).to.deep.equal([(NOW - 6 * HOUR) / 1000, NOW / 1000]);
    expect(historyRange([], HOUR, NOW)).to.deep.equal([(NOW - HOUR) / 1000, NOW / 1000]);
  });

  it('a year: 8760 h ending at the later of now and the last point (a clock behind the server)', () => {
    const year = 8760 * HOUR;
    const times = Array.from({ length: 8760 }, (_, i) => NOW - year + (i + 1) * HOUR + 5000);
    expect(historyRange(times, year, NOW)).to.deep.equal([(NOW + 5000 - year) / 1000, (NOW + 5000) / 1000]);
  });

  it('non-finite input never widens the range', () => {
    expect(historyRange([Number.NaN, Number.POSITIVE_INFINITY], HOUR, NOW)).to.deep.equal([(NOW - HOUR) / 1000, NOW / 1000]);
    expect(historyRange([], Number.NaN, NOW)).to.deep.equal([(NOW - HOUR) / 1000, NOW / 1000]);
  });

  it('axis labels: time of day up to a day, date and time up to 60 days, the year beyond', () => {
    expect(axisTemplate(3600)).to.equal('{HH}:{mm}');
    expect(axisTemplate(24 * 3600)).to.equal('{HH}:{mm}');
    expect(axisTemplate(48 * 3600)).to.equal('{MMM} {D} {HH}:{mm}');
    expect(axisTemplate(60 * 24 * 3600)).to.equal('{MMM} {D} {HH}:{mm}');
    expect(axisTemplate(8760 * 3600)).to.equal('{MMM} {D} {YYYY}');
    expect(axisTemplate(Number.NaN)).to.equal('{HH}:{mm}');
    expect(axisSpace('{HH}:{mm}')).to.equal(60);
    expect(axisSpace('{MMM} {D} {YYYY}')).to.equal(120);
  });
});
