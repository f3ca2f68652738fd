import { expect } from 'chai';
import { formatEta, formatFusedR, formatHealth, formatMinutes, formatRelative, formatSeconds, formatTimestamp } from '../../../dashboard/src/model/format.js';

describe('dashboard formatting', () => {
  it('prints FusedR with two decimals and health as a whole percentage', () => {
    expect(formatFusedR(2.874)).to.equal('2.87');
    expect(formatFusedR(Number.NaN)).to.equal('–');
    expect(formatHealth(0.4312)).to.equal('43%');
    expect(formatHealth(1.2)).to.equal('100%');
    expect(formatHealth(undefined)).to.equal('–');
  });

  it('prints durations in minutes, hours and days; zero means none', () => {
    expect(formatMinutes(0)).to.equal('none');
    expect(formatMinutes(12)).to.equal('12 min');
    expect(formatMinutes(65)).to.equal('1 h 5 min');
    expect(formatMinutes(120)).to.equal('2 h');
    expect(formatMinutes(1440 + 180)).to.equal('1 d 3 h');
    expect(formatSeconds(420)).to.equal('7 min');
    expect(formatSeconds(42)).to.equal('42 s');
    // floored like critical_eta_minutes: 7.5 min reads 7 min
    expect(formatSeconds(450)).to.equal('7 min');
    expect(formatEta(450, 'input-trend')).to.equal('7 min');
    expect(formatEta(0, 'input-trend')).to.equal('now');
    expect(formatEta(21_600, 'none')).to.equal('none');
  });

  it('prints relative and absolute times', () => {
    const now = Date.parse('2026-05-01T09:00:00.000Z');
    expect(formatRelative('2026-05-01T09:00:00.000Z', now)).to.equal('just now');
    expect(formatRelative('2026-05-01T08:59:18.000Z', now)).to.equal('42 s ago');
    expect(formatRelative('2026-05-01T08:55:00.000Z', now)).to.equal('5 min ago');
    expect(formatRelative('2026-05-01T06:00:00.000Z', now)).to.equal('3 h ago');
    expect(formatRelative('2026-05-01T09:10:00.000Z', now)).to.equal('in 10 min');
    expect(formatRelative('garbage', now)).to.equal('–');
    expect(formatTimestamp('2026-05-01T09:00:00.000Z')).to.equal('2026-05-01 09:00:00 UTC');
    expect(formatTimestamp(null)).to.equal('–');
  });
});
