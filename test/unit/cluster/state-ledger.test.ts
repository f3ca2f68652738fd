/** A state write carries only what moved since the last acknowledged one, the read position included. */
import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import { ReplayOffsets } from '../../../api-server/src/cluster/replay-offsets.js';
import { StateLedger } from '../../../api-server/src/cluster/state-ledger.js';
import { partitionOf } from '../../../api-server/src/cluster/workload-partition.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);
const KEY = 'shop/Deployment/w0';
const PARTITIONS = 6;

describe('cluster state ledger', () => {
  it('writes a workload\'s state once per processed bucket and the read position once per move', () => {
    let n = 0;
    const core = new AnalysisCoreImpl({ newHexId: () => (n++).toString(16).padStart(12, '0') });
    const replay = new ReplayOffsets();
    const ledger = new StateLedger(core, replay, 'state-t', PARTITIONS);
    const p = partitionOf(KEY, PARTITIONS);
    const all = (): boolean => true;
    // nothing analysed, nothing read: nothing to write
    expect(ledger.pending(all).messages).to.deep.equal([]);
    core.observeMetric({ workload: KEY, pod: undefined, name: 'cpu_percent', value: 0.3, timeMs: ORIGIN + 1_000 });
    // the bucket is analysed once the next one closed too
    core.step(ORIGIN + 30_000 + 1);
    replay.startAt(p, 0n);
    replay.consumed(p, 0n, KEY, 0);
    const first = ledger.pending(all);
    expect(first.messages.map((m) => m.key)).to.deep.equal([`r|${p}`, `s|${KEY}`]);
    expect(first.messages[0]?.value).to.equal('1');
    expect(first.messages.every((m) => m.topic === 'state-t' && m.partition === p)).to.equal(true);
    // not acknowledged yet: still pending; other partitions only: nothing
    expect(ledger.pending(all).messages).to.have.length(2);
    expect(ledger.pending((q) => q !== p).messages).to.deep.equal([]);
    ledger.confirm(first, all);
    expect(ledger.pending(all).messages).to.deep.equal([]);
    // read on, no bucket processed: only the position
    replay.consumed(p, 1n, KEY, 1);
    expect(ledger.pending(all).messages.map((m) => m.key)).to.deep.equal([`r|${p}`]);
    // a write confirmed for a partition no longer kept is not recorded
    ledger.confirm(ledger.pending(all), () => false);
    expect(ledger.pending(all).messages).to.have.length(1);
    // forgotten (released): the next owner's state counts, written again from scratch here
    ledger.forgetPartition(p);
    ledger.forgetWorkload(KEY);
    expect(ledger.pending(all).messages.map((m) => m.key)).to.deep.equal([`r|${p}`, `s|${KEY}`]);
  });
});
