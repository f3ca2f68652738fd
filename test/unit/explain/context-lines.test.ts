import { expect } from 'chai';
import { contextEventLines } from '../../../api-server/src/analysis/explain/context-lines.js';

const OPEN = Date.UTC(2026, 10, 22, 12, 0, 0);
const KEY = 'shop/Deployment/cart';

describe('context-event lines (analytics.md §8.7)', () => {
  it('lists events of the hour before and during the episode, oldest first', () => {
    const events = [
      { id: '1', workload: KEY, event: 'deploy', description: 'v42', timeMs: OPEN - 12.5 * 60_000 },
      { id: '2', workload: KEY, event: 'config', description: 'pool size', timeMs: OPEN + 30_000 },
      { id: '3', workload: KEY, event: 'deploy', description: 'too old', timeMs: OPEN - 61 * 60_000 },
      { id: '4', workload: 'shop/Deployment/other', event: 'deploy', description: 'x', timeMs: OPEN },
      { id: '5', workload: KEY, event: 'deploy', description: 'after close', timeMs: OPEN + 10 * 60_000 },
      { id: '6', workload: KEY, event: 'bad', description: 'nan', timeMs: Number.NaN },
    ];
    expect(contextEventLines(events, KEY, OPEN, OPEN + 5 * 60_000)).to.deep.equal([
      'Context: deploy (v42) at 2026-11-22T11:47:30.000Z, 12 min before the rupture',
      'Context: config (pool size) at 2026-11-22T12:00:30.000Z, during the rupture',
    ]);
    expect(contextEventLines(events, KEY, OPEN, null)).to.have.length(3);
  });
});
