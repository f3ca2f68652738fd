import { expect } from 'chai';
import { FleetHistory, sparklinePath } from '../../../dashboard/src/model/fleet-history.js';

describe('fleet sparkline history', () => {
  it('keeps one point per snapshot time, newest last, at most the capacity', () => {
    const h = new FleetHistory(3);
    h.add('a', 1000, 0.5);
    h.add('a', 1000, 0.7); // same snapshot seen again: value refreshed, no new point
    h.add('a', 500, 9); // older than the newest: ignored
    h.add('a', 2000, 1);
    h.add('a', 3000, 2);
    h.add('a', 4000, 3);
    h.add('a', Number.NaN, 1);
    expect(h.points('a')).to.deep.equal([
      { t: 2000, r: 1 },
      { t: 3000, r: 2 },
      { t: 4000, r: 3 },
    ]);
    h.forget(new Set(['b']));
    expect(h.points('a')).to.deep.equal([]);
  });

  it('draws points across the width on an axis from 0 to at least 4', () => {
    // width 100, height 40: t 0..10 s → x 0..100; r 0 → y 40, r 2 → y 20 (top 4), r 4 → y 0
    expect(
      sparklinePath(
        [
          { t: 0, r: 0 },
          { t: 5000, r: 2 },
          { t: 10_000, r: 4 },
        ],
        100,
        40,
      ),
    ).to.equal('0.0,40.0 50.0,20.0 100.0,0.0');
    // a peak of 8 rescales the axis: r 4 → half height
    expect(sparklinePath([{ t: 0, r: 4 }, { t: 1, r: 8 }], 10, 10)).to.equal('0.0,5.0 10.0,0.0');
    expect(sparklinePath([], 10, 10)).to.equal('');
  });
});
