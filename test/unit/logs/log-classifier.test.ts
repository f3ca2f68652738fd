import { expect } from 'chai';
import fc from 'fast-check';
import { classifyLog } from '../../../api-server/src/analysis/logs/log-classifier.js';

describe('log classification (analytics.md §4.1)', () => {
  it('follows the severityNumber table', () => {
    expect([1, 4, 5, 8].map((n) => classifyLog(n, 'ERROR', 'error'))).to.deep.equal(['ignored', 'ignored', 'ignored', 'ignored']);
    expect([9, 12].map((n) => classifyLog(n, '', 'error in body'))).to.deep.equal(['info', 'info']);
    expect([13, 16].map((n) => classifyLog(n, '', ''))).to.deep.equal(['warn', 'warn']);
    expect([17, 20, 21, 24].map((n) => classifyLog(n, 'info', ''))).to.deep.equal(['error', 'error', 'error', 'error']);
  });

  it('falls back to severityText when the number is absent or out of range', () => {
    expect(classifyLog(0, 'Error', '')).to.equal('error');
    expect(classifyLog(0, 'FATAL', '')).to.equal('error');
    expect(classifyLog(0, 'crit', '')).to.equal('error');
    expect(classifyLog(0, ' WARNING', '')).to.equal('warn');
    expect(classifyLog(0, 'debug', 'error')).to.equal('ignored');
    expect(classifyLog(0, 'Trace', '')).to.equal('ignored');
    expect(classifyLog(0, 'notice', 'fatal')).to.equal('info');
    expect(classifyLog(25, 'warn', '')).to.equal('warn');
    expect(classifyLog(Number.NaN, 'err', '')).to.equal('error');
    expect(classifyLog(9.5, 'warn', '')).to.equal('warn');
  });

  it('falls back to the body when neither is given', () => {
    expect(classifyLog(0, '', 'Connection ERROR on upstream')).to.equal('error');
    expect(classifyLog(0, '', 'fatal: disk full')).to.equal('error');
    expect(classifyLog(0, '', 'CRITICAL state')).to.equal('error');
    expect(classifyLog(0, '', 'Warning: slow query')).to.equal('warn');
    expect(classifyLog(0, '', 'request served')).to.equal('info');
    expect(classifyLog(0, '  ', '')).to.equal('info');
  });

  it('always returns one of the four classes for any input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer({ min: -5, max: 30 })), fc.string(), fc.string(), (n, text, body) => {
        expect(['ignored', 'info', 'warn', 'error']).to.include(classifyLog(n, text, body));
      }),
    );
  });
});
