import { expect } from 'chai';
import type { AnomalyEvent } from '../../../api-server/src/analysis/contract.js';
import { RecentAnomalies } from '../../../api-server/src/cluster/recent-anomalies.js';

const event = (workload: string, n: number): AnomalyEvent => ({
  id: `a${n}`,
  workload,
  metric: 'cpu',
  method: 'zscore',
  severity: 'warning',
  value: n,
  expected: 0,
  score: 1,
  consensus: false,
  timeMs: n * 1000,
});

describe('cluster/recent-anomalies: the latest 100 anomalies per workload for the view record', () => {
  it('keeps each workload\'s newest last and drops the oldest beyond 100', () => {
    const recent = new RecentAnomalies();
    recent.add([event('a', 1), event('b', 2), event('a', 3)]);
    expect(recent.of('a').map((e) => e.id)).to.deep.equal(['a1', 'a3']);
    expect(recent.of('b').map((e) => e.id)).to.deep.equal(['a2']);
    recent.add(Array.from({ length: 120 }, (_, i) => event('a', 10 + i)));
    const ids = recent.of('a').map((e) => e.id);
    expect(ids).to.have.length(100);
    // 2 + 120 = 122: the 22 oldest go (a1, a3, a10..a29)
    expect([ids[0], ids[99]]).to.deep.equal(['a30', 'a129']);
    expect(recent.of('unknown')).to.deep.equal([]);
  });

  it('a restored view replaces the workload\'s list with its last 100; forget drops it', () => {
    const recent = new RecentAnomalies();
    recent.add([event('a', 1)]);
    recent.restore('a', Array.from({ length: 150 }, (_, i) => event('a', 1000 + i)));
    const ids = recent.of('a').map((e) => e.id);
    expect([ids.length, ids[0], ids[99]]).to.deep.equal([100, 'a1050', 'a1149']);
    recent.forget('a');
    expect(recent.of('a')).to.deep.equal([]);
  });
});
