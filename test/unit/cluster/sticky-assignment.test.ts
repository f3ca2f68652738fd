/** Sticky, balanced partition assignment: a leaving member moves only its own partitions. */
import { expect } from 'chai';
import fc from 'fast-check';
import { assignSticky, decodeOwnership, encodeOwnership, partitionsMoved, type GroupMember } from '../../../api-server/src/cluster/sticky-assignment.js';

const members = (m: Map<string, number[]>): GroupMember[] => [...m].map(([id, owned]) => ({ id, owned }));
const sizes = (m: Map<string, number[]>): number[] => [...m.values()].map((ps) => ps.length);

describe('cluster sticky assignment', () => {
  it('shares 12 partitions 4/4/4 from nothing, then a kill moves the victim\'s 4 only and the return takes back 4', () => {
    const first = assignSticky([{ id: 'a', owned: [] }, { id: 'b', owned: [] }, { id: 'c', owned: [] }], 12);
    expect([...first.values()]).to.deep.equal([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]);
    first.delete('b');
    const afterKill = assignSticky(members(first), 12);
    // a keeps 0-3 and takes 4, 5; c keeps 8-11 and takes 6, 7
    expect(afterKill.get('a')).to.deep.equal([0, 1, 2, 3, 4, 5]);
    expect(afterKill.get('c')).to.deep.equal([6, 7, 8, 9, 10, 11]);
    expect(partitionsMoved(first, afterKill)).to.equal(4);
    const back = assignSticky([...members(afterKill), { id: 'b2', owned: [] }], 12);
    expect(back.get('a')).to.deep.equal([0, 1, 2, 3]);
    // each survivor gives up its two highest
    expect(back.get('c')).to.deep.equal([6, 7, 8, 9]);
    expect(back.get('b2')).to.deep.equal([4, 5, 10, 11]);
    expect(partitionsMoved(afterKill, back)).to.equal(4);
  });

  it('gives the ceil slots to the members owning the most, and settles a partition two members claim on the first', () => {
    // 7 partitions, 2 members: a owns 5 (keeps 4, the ceil), b owns 2 and claims 0 too
    const out = assignSticky([{ id: 'a', owned: [0, 1, 2, 3, 4] }, { id: 'b', owned: [0, 5, 6] }], 7);
    expect(out.get('a')).to.deep.equal([0, 1, 2, 3]);
    expect(out.get('b')).to.deep.equal([4, 5, 6]);
    // out-of-range and non-integer claims are ignored
    expect(assignSticky([{ id: 'x', owned: [9, -1, 0.5, 1] }], 2).get('x')).to.deep.equal([0, 1]);
  });

  it('assigns every partition once, balanced, keeps what it can, and moves only a leaver\'s partitions (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 48 }), fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 8 }), (n, p, leaveSeeds) => {
        const ids = Array.from({ length: n }, (_, i) => `m${i}`);
        let current = assignSticky(ids.map((id) => ({ id, owned: [] })), p);
        // joiners get ids never used before in this run (a reused id would be the same member twice)
        let joins = 0;
        for (const seed of leaveSeeds) {
          const all = [...current.values()].flat().sort((a, b) => a - b);
          expect(all).to.deep.equal(Array.from({ length: p }, (_, i) => i));
          const s = sizes(current);
          expect(Math.max(...s) - Math.min(...s)).to.be.at.most(1);
          if (current.size > 1 && seed % 2 === 0) {
            // a member leaves: exactly its partitions move
            const leaver = [...current.keys()][seed % current.size] as string;
            const share = (current.get(leaver) as number[]).length;
            const rest = new Map(current);
            rest.delete(leaver);
            const next = assignSticky(members(rest), p);
            expect(partitionsMoved(rest, next)).to.equal(share);
            current = next;
          } else {
            // a member joins with nothing: it takes its quota, nothing else moves
            const next = assignSticky([...members(current), { id: `j${joins++}`, owned: [] }], p);
            const joined = [...next.values()].at(-1) as number[];
            expect(partitionsMoved(current, next)).to.equal(joined.length);
            expect(joined.length).to.equal(Math.floor(p / next.size));
            current = next;
          }
        }
      }),
    );
  });

  it('reads back the ownership it encodes, and none from user data of another kind', () => {
    const data = encodeOwnership(new Map([['telemetry', [1, 4]]]));
    expect(decodeOwnership(Buffer.from(data), 'telemetry')).to.deep.equal([1, 4]);
    expect(decodeOwnership(data, 'other')).to.deep.equal([]);
    expect(decodeOwnership(Buffer.alloc(0), 'telemetry')).to.deep.equal([]);
    expect(decodeOwnership(Buffer.from([0, 1, 2]), 'telemetry')).to.deep.equal([]);
    expect(decodeOwnership('{"owned":{"telemetry":[2,"x",3.5,7]}}', 'telemetry')).to.deep.equal([2, 7]);
  });
});
