import { expect } from 'chai';
import fc from 'fast-check';
import { SortedWindow } from '../../../api-server/src/analysis/ensemble/sorted-window.js';

/** the definitions, computed the slow way */
function naiveMedian(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

describe('sorted window', () => {
  it('median and median absolute deviation of a hand-checked window', () => {
    const w = new SortedWindow(5);
    for (const v of [1, 2, 3, 4, 100]) w.push(v);
    expect(w.median()).to.equal(3);
    // |x - 3| = 2, 1, 0, 1, 97 -> sorted 0, 1, 1, 2, 97 -> 1
    expect(w.medianAbsDeviation(3)).to.equal(1);
    expect(w.push(7)).to.equal(1); // the oldest leaves
    expect(w.values()).to.deep.equal([2, 3, 4, 100, 7]);
    // around 5: 3, 2, 1, 95, 2 -> 1, 2, 2, 3, 95 -> 2
    expect(w.medianAbsDeviation(5)).to.equal(2);
  });

  it('even count: the mean of the two middle deviations', () => {
    const w = new SortedWindow(10);
    for (const v of [0, 10, 20, 30]) w.push(v);
    expect(w.median()).to.equal(15);
    // 15, 5, 5, 15 -> (5 + 15) / 2
    expect(w.medianAbsDeviation(15)).to.equal(10);
  });

  it('even count: the second middle deviation from the same run as the first', () => {
    const w = new SortedWindow(6);
    for (const v of [12, 1, 7, 2, 11, 4]) w.push(v);
    expect(w.median()).to.equal(5.5);
    // left of 5.5: 1.5, 3.5, 4.5; right: 1.5, 5.5, 6.5 -> sorted 1.5, 1.5, 3.5, 4.5, 5.5, 6.5 -> (3.5 + 4.5) / 2
    expect(w.medianAbsDeviation(5.5)).to.equal(4);
    // a center that is not the median: |x - 9| = 8, 7, 5, 2, 2, 3 -> 2, 2, 3, 5, 7, 8 -> (3 + 5) / 2
    expect(w.medianAbsDeviation(9)).to.equal(4);
    // and the median again, after a search that ended elsewhere
    expect(w.medianAbsDeviation(5.5)).to.equal(4);
  });

  it('values equal to the center split either way: the middle serves as the split when the center lies between the two middle values', () => {
    const w = new SortedWindow(5);
    for (const v of [2, 1, 2, 3, 2]) w.push(v);
    // |x - 2| = 0, 1, 0, 1, 0 -> 0, 0, 0, 1, 1 -> 0 (the middle value 2 has equal neighbours: no search)
    expect(w.medianAbsDeviation(2)).to.equal(0);
    // |x - 1| = 1, 0, 1, 2, 1 -> 0, 1, 1, 1, 2 -> 1 (the center is the lowest value: the search)
    expect(w.medianAbsDeviation(1)).to.equal(1);
    const even = new SortedWindow(6);
    for (const v of [5, 5, 1, 5, 9, 5]) even.push(v);
    // |x - 5| = 0, 0, 4, 0, 4, 0 -> 0, 0, 0, 0, 4, 4 -> (0 + 0) / 2
    expect(even.medianAbsDeviation(5)).to.equal(0);
    // |x - 3| = 2, 2, 2, 2, 6, 2 -> 2, 2, 2, 2, 2, 6 -> 2
    expect(even.medianAbsDeviation(3)).to.equal(2);
  });

  it('a value leaving as the same value enters (flat stretches, zeros of both signs) keeps the window exact, push after push (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        // runs of one value from a small set, so that the leaving value often equals the entering one
        fc.array(fc.tuple(fc.constantFrom(0, -0, 1, 2, 2.5, -3), fc.integer({ min: 1, max: 60 })), { minLength: 1, maxLength: 30, size: 'max' }),
        (capacity, runs) => {
          const w = new SortedWindow(capacity);
          const kept: number[] = [];
          for (const [value, length] of runs) {
            for (let k = 0; k < length; k += 1) {
              w.push(value);
              kept.push(value);
              if (kept.length > capacity) kept.shift();
              const median = naiveMedian(kept);
              // zeros compared by value: the sorted copy does not keep which zero is where
              expect(w.median() + 0).to.equal(median + 0);
              expect(w.medianAbsDeviation(median) + 0).to.equal(naiveMedian(kept.map((x) => Math.abs(x - median))) + 0);
            }
          }
          expect(w.values()).to.deep.equal(kept);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the deviation does not depend on where the previous search ended (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -4, max: 4 }), fc.double({ min: -1e3, max: 1e3, noNaN: true })), { minLength: 1, maxLength: 120, size: 'max' }),
        fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 12, size: 'max' }),
        (xs, centers) => {
          const w = new SortedWindow(xs.length);
          for (const x of xs) w.push(x);
          // each call starts its search where the one before ended, wherever that was
          for (const center of [...centers, w.median(), ...centers.map((c) => -c), w.median()]) {
            expect(w.medianAbsDeviation(center)).to.equal(naiveMedian(xs.map((x) => Math.abs(x - center))));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the last W values across storage growth and eviction, and agrees with the definitions (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })), { maxLength: 300, size: 'max' }),
        fc.double({ min: -10, max: 10, noNaN: true }),
        (capacity, xs, offset) => {
          const w = new SortedWindow(capacity);
          const kept: number[] = [];
          for (const x of xs) {
            const evicted = w.push(x);
            kept.push(x);
            if (kept.length > capacity) expect(evicted).to.equal(kept.shift());
            else expect(Number.isNaN(evicted)).to.equal(true);
          }
          expect(w.values()).to.deep.equal(kept);
          expect(w.count).to.equal(kept.length);
          expect(w.median()).to.equal(naiveMedian(kept));
          for (const center of [w.median(), w.median() + offset]) {
            const expected = naiveMedian(kept.map((x) => Math.abs(x - center)));
            expect(w.medianAbsDeviation(center)).to.equal(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the order as ring positions: hand-checked ranks while filling, on eviction and among equal values', () => {
    const w = new SortedWindow(4);
    for (const v of [5, 1, 3]) w.push(v);
    // ring 5, 1, 3: the smallest value is in slot 1, then slot 2, then slot 0
    expect(w.ranks()).to.deep.equal([1, 2, 0]);
    w.push(2);
    expect(w.ranks()).to.deep.equal([1, 3, 2, 0]);
    expect(w.push(4)).to.equal(5); // slot 0 now holds 4: still the largest
    expect(w.ranks()).to.deep.equal([1, 3, 2, 0]);
    expect(w.push(0)).to.equal(1); // slot 1 now holds 0: still the smallest
    expect(w.push(9)).to.equal(3); // slot 2 now holds 9: ring 4, 0, 9, 2
    expect(w.ranks()).to.deep.equal([1, 3, 0, 2]);
    expect(w.sortedValues()).to.deep.equal([0, 2, 4, 9]);
    expect(w.median()).to.equal(3);

    // three equal values: each enters before its equals; the one leaving is found by its slot
    const flat = new SortedWindow(3);
    for (const v of [2, 2, 2]) flat.push(v);
    expect(flat.ranks()).to.deep.equal([2, 1, 0]);
    expect(flat.push(7)).to.equal(2); // slot 0, the last of the three ranks of 2, leaves
    expect(flat.ranks()).to.deep.equal([2, 1, 0]);
    expect(flat.sortedValues()).to.deep.equal([2, 2, 7]);
    expect(flat.push(-1)).to.equal(2); // slot 1 leaves from the middle rank: ring 7, -1, 2
    expect(flat.ranks()).to.deep.equal([1, 2, 0]);
  });

  it('the positions are a permutation of the slots whose values are the window sorted, zeros of both signs kept where they are (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.oneof(fc.constantFrom(0, -0, 1, -1, 2.5), fc.double({ min: -1e6, max: 1e6, noNaN: true })), { maxLength: 250, size: 'max' }),
        (capacity, xs) => {
          const w = new SortedWindow(capacity);
          const kept: number[] = [];
          for (const x of xs) {
            w.push(x);
            kept.push(x);
            if (kept.length > capacity) kept.shift();
            const ranks = w.ranks();
            // every slot once
            expect([...ranks].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: kept.length }, (_, k) => k));
            // ascending by value
            const values = w.sortedValues();
            for (let k = 1; k < values.length; k += 1) expect(values[k - 1]! <= values[k]!).to.equal(true);
            // the values read through the positions are the window's, bit for bit (a zero keeps its sign)
            const key = (v: number): string => (Object.is(v, -0) ? '-0' : String(v));
            expect(values.map(key).sort()).to.deep.equal(kept.map(key).sort());
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a capacity its 16-bit positions cannot address', () => {
    expect(() => new SortedWindow(65_537)).to.throw(RangeError, /capacity/);
    expect(() => new SortedWindow(0)).to.throw(RangeError, /capacity/);
    expect(new SortedWindow(65_536).capacity).to.equal(65_536);
  });
});
