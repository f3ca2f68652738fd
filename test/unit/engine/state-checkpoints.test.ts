import { expect } from 'chai';
import fc from 'fast-check';
import { StateCheckpoints } from '../../../api-server/src/engine/state-checkpoints.js';

describe('StateCheckpoints: whose analysis state a tick writes', () => {
  it('writes new workloads at once and the others in their turn (hand-checked, every 3 ticks)', () => {
    const c = new StateCheckpoints(3);
    // tick 1: a, b, c, d are new: all written; turns a→0, b→1, c→2, d→0
    expect(c.due(1, ['a', 'b', 'c', 'd'])).to.deep.equal(['a', 'b', 'c', 'd']);
    // tick 2 (turn 2): c's turn
    expect(c.due(2, ['a', 'b', 'c', 'd'])).to.deep.equal(['c']);
    // tick 3 (turn 0): a and d, which stepped in ticks 2 and 3; e is new (turn 1)
    expect(c.due(3, ['a', 'b', 'c', 'd', 'e'])).to.deep.equal(['e', 'a', 'd']);
    // tick 4 (turn 1): b (stepped in 2, 3, 4) and e; d steps no more from here
    expect(c.due(4, ['a', 'b', 'c', 'e'])).to.deep.equal(['b', 'e']);
    // tick 5 (turn 2): c
    expect(c.due(5, ['a', 'b', 'c'])).to.deep.equal(['c']);
    // tick 6 (turn 0): a only; d has not stepped since tick 3's write
    expect(c.due(6, [])).to.deep.equal(['a']);
    // tick 7 (turn 1): b; e stepped in tick 4 only, written then
    expect(c.due(7, [])).to.deep.equal(['b']);
    expect(c.due(8, [])).to.deep.equal([]);
  });

  it('spreads a backfill of many new workloads over the turns once they are written', () => {
    const c = new StateCheckpoints(20);
    const keys = Array.from({ length: 10_000 }, (_, i) => `w${i}`);
    expect(c.due(1, keys)).to.have.length(10_000);
    for (let tick = 2; tick <= 21; tick++) expect(c.due(tick, keys)).to.have.length(500);
  });

  it('owes nothing for restored workloads until they step, then writes them in their turn', () => {
    const c = new StateCheckpoints(2);
    c.stored(['a', 'b']); // turns a→0, b→1
    expect(c.due(1, ['a'])).to.deep.equal([]);
    expect(c.due(2, ['b'])).to.deep.equal(['a']);
    expect(c.due(3, [])).to.deep.equal(['b']);
  });

  it('hands every unwritten workload over at shutdown, once', () => {
    const c = new StateCheckpoints(4);
    c.due(1, ['a', 'b', 'c']);
    c.due(2, ['a', 'b', 'c']); // turn 2: c written
    expect(c.takeAll().sort()).to.deep.equal(['a', 'b']);
    expect(c.takeAll()).to.deep.equal([]);
  });

  it('writes a forgotten workload no more, and again at once when it comes back', () => {
    const c = new StateCheckpoints(2);
    c.due(1, ['a']); // a→0
    c.due(3, ['a']); // turn 1: a stepped, not its turn
    c.forget('a');
    expect(c.due(4, [])).to.deep.equal([]);
    expect(c.takeAll()).to.deep.equal([]);
    expect(c.due(5, ['a'])).to.deep.equal(['a']);
  });

  it('refuses a period that is not a positive integer', () => {
    expect(() => new StateCheckpoints(0)).to.throw(RangeError, 'everyTicks');
    expect(() => new StateCheckpoints(1.5)).to.throw(RangeError, 'everyTicks');
  });

  it('writes a workload that steps within every period after it stepped, and at most once per tick (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.subarray(['a', 'b', 'c', 'd', 'e', 'f', 'g']), { minLength: 1, maxLength: 40, size: 'max' }),
        (every, ticks) => {
          const c = new StateCheckpoints(every);
          const seen = new Set<string>();
          /** workload → the first tick it stepped in since its last write */
          const owed = new Map<string, number>();
          ticks.forEach((stepped, i) => {
            const tick = i + 1;
            const newOnes = stepped.filter((k) => !seen.has(k));
            for (const k of stepped) {
              seen.add(k);
              if (!owed.has(k)) owed.set(k, tick);
            }
            const due = c.due(tick, stepped);
            expect(new Set(due).size).to.equal(due.length);
            for (const k of newOnes) expect(due).to.include(k);
            for (const k of due) {
              expect(owed.has(k), `${k} written at tick ${tick} without having stepped`).to.equal(true);
              owed.delete(k);
            }
            for (const [k, since] of owed) expect(tick - since, `${k} owed since tick ${since}`).to.be.lessThan(every);
          });
          expect(c.takeAll().sort()).to.deep.equal([...owed.keys()].sort());
        },
      ),
    );
  });
});
