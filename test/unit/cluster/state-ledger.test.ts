/** A state write carries only what moved since the last acknowledged one, the read position included. */
import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import { ReplayOffsets } from '../../../api-server/src/cluster/replay-offsets.js';
import { StateLedger, type StateWrite } from '../../../api-server/src/cluster/state-ledger.js';
import { partitionOf } from '../../../api-server/src/cluster/workload-partition.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);
const KEY = 'shop/Deployment/w0';
const PARTITIONS = 6;

/** everything pending, as one write (StateLedger.writes without a bound: one write or none) */
const pendingOf = (ledger: StateLedger, include: (partition: number) => boolean): StateWrite => [...ledger.writes(include, Number.POSITIVE_INFINITY)][0] ?? { messages: [], workloads: [], positions: [] };

describe('cluster state ledger', () => {
  it('writes a workload\'s state once per processed bucket and the read position once per move', () => {
    let n = 0;
    const core = new AnalysisCoreImpl({ newHexId: () => (n++).toString(16).padStart(12, '0') });
    const replay = new ReplayOffsets();
    const ledger = new StateLedger(core, replay, 'state-t', PARTITIONS);
    const p = partitionOf(KEY, PARTITIONS);
    const all = (): boolean => true;
    // nothing analysed, nothing read: nothing to write
    expect(pendingOf(ledger, all).messages).to.deep.equal([]);
    core.observeMetric({ workload: KEY, pod: undefined, name: 'cpu_percent', value: 0.3, timeMs: ORIGIN + 1_000 });
    // the bucket is analysed once the next one closed too
    core.step(ORIGIN + 30_000 + 1);
    replay.startAt(p, 0n);
    replay.consumed(p, 0n, KEY, 0);
    const first = pendingOf(ledger, all);
    // the state first, the read position after it
    expect(first.messages.map((m) => m.key)).to.deep.equal([`s|${KEY}`, `r|${p}`]);
    expect(first.messages[1]?.value).to.equal('1');
    expect(first.messages.every((m) => m.topic === 'state-t' && m.partition === p)).to.equal(true);
    // not acknowledged yet: still pending; other partitions only: nothing
    expect(pendingOf(ledger, all).messages).to.have.length(2);
    expect(pendingOf(ledger, (q) => q !== p).messages).to.deep.equal([]);
    ledger.confirm(first, all);
    expect(pendingOf(ledger, all).messages).to.deep.equal([]);
    // read on, no bucket processed: only the position
    replay.consumed(p, 1n, KEY, 1);
    expect(pendingOf(ledger, all).messages.map((m) => m.key)).to.deep.equal([`r|${p}`]);
    // a write confirmed for a partition no longer kept is not recorded
    ledger.confirm(pendingOf(ledger, all), () => false);
    expect(pendingOf(ledger, all).messages).to.have.length(1);
    // forgotten (released): the next owner's state counts, written again from scratch here
    ledger.forgetPartition(p);
    ledger.forgetWorkload(KEY);
    expect(pendingOf(ledger, all).messages.map((m) => m.key)).to.deep.equal([`s|${KEY}`, `r|${p}`]);
  });

  it('splits the pending records into writes of at most maxBytes of values, exports each state when its write is asked for, the positions last', () => {
    /** an analysis core that counts the states it exported */
    class CountingCore extends AnalysisCoreImpl {
      exported = 0;
      override exportWorkload(key: string): unknown {
        this.exported += 1;
        return super.exportWorkload(key);
      }
    }
    let n = 0;
    const core = new CountingCore({ newHexId: () => (n++).toString(16).padStart(12, '0') });
    const replay = new ReplayOffsets();
    const ledger = new StateLedger(core, replay, 'state-t', PARTITIONS);
    const keys = Array.from({ length: 9 }, (_, i) => `shop/Deployment/w${i}`);
    for (let b = 0; b < 30; b++) for (const key of keys) core.observeMetric({ workload: key, pod: undefined, name: 'cpu_percent', value: 0.3 + ((b * 7) % 5) / 100, timeMs: ORIGIN + b * 15_000 + 1_000 });
    core.step(ORIGIN + 31 * 15_000 + 1);
    for (const [i, key] of keys.entries()) {
      const p = partitionOf(key, PARTITIONS);
      replay.startAt(p, 0n);
      replay.consumed(p, BigInt(i), key, 29);
    }
    const all = (): boolean => true;
    const sizes = keys.map((k) => JSON.stringify(core.exportWorkload(k)).length);
    core.exported = 0;
    // room for two states a write (three would not fit)
    const maxBytes = Math.max(...sizes) * 2 + 10;
    expect(Math.min(...sizes) * 3).to.be.above(maxBytes);
    const writes = ledger.writes(all, maxBytes);
    const first = writes.next();
    expect(first.done).to.equal(false);
    const firstWrite = first.value as StateWrite;
    // the third state was exported to learn it does not fit; the others not yet
    expect(core.exported).to.equal(3);
    expect(firstWrite.messages.map((m) => m.key)).to.deep.equal([`s|${keys[0]}`, `s|${keys[1]}`]);
    const rest = [...writes];
    const every = [firstWrite, ...rest];
    expect(every.map((w) => w.workloads.length)).to.deep.equal([2, 2, 2, 2, 1]);
    for (const w of every) expect(w.messages.filter((m) => m.key.startsWith('s|')).reduce((b, m) => b + (m.value?.length ?? 0), 0)).to.be.at.most(maxBytes);
    // the read positions: in the last write, after its state
    const positions = new Set(keys.map((k) => partitionOf(k, PARTITIONS))).size;
    expect(every.slice(0, -1).every((w) => w.positions.length === 0)).to.equal(true);
    expect(every.at(-1)?.messages.map((m) => m.key[0])).to.deep.equal(['s', ...Array<string>(positions).fill('r')]);
    // the same records as pending, in the same order
    expect(every.flatMap((w) => w.messages)).to.deep.equal(pendingOf(ledger, all).messages);
    // one state larger than maxBytes: alone in its write
    expect([...ledger.writes(all, 1)].map((w) => w.workloads.length)).to.deep.equal(keys.map(() => 1));
  });
});
