import { expect } from 'chai';
import fc from 'fast-check';
import { failureObjectivesBody, MAX_OBJECTIVES, objectivesFrom } from '../../../api-server/src/control/failure-objectives.js';
import { fromZod } from '../../../api-server/src/model/http-errors.js';

/** the 400 a body gets, or null when it is accepted */
function refusal(body: unknown): { field: string | undefined; message: string } | null {
  const parsed = failureObjectivesBody.safeParse(body);
  if (parsed.success) return null;
  const error = fromZod(parsed.error);
  return { field: error.field, message: error.message };
}

describe('failure objective bodies', () => {
  it('keeps only the fields given, in order', () => {
    const body = [
      { selector: 'shop/Deployment/cart', error_rate: 0.15, latency_ms: 450 },
      { selector: 'shop/*', memory: 1, cpu: 0.85 },
      { selector: '*' },
    ];
    expect(objectivesFrom(failureObjectivesBody.parse(body))).to.deep.equal(body);
  });

  it('refuses each bad field by its path and reason', () => {
    expect(refusal([{ selector: 'shop/Deployment/cart', error_rate: 15 }])).to.deep.equal({ field: '[0].error_rate', message: '[0].error_rate: must be <= 1 (a fraction, not a percentage)' });
    expect(refusal([{ selector: '*' }, { selector: 'a/b', cpu: 0.5 }])).to.deep.equal({ field: '[1].selector', message: '[1].selector: must be *, namespace/* or namespace/Kind/name' });
    expect(refusal([{ selector: '*', latency_ms: 0 }])).to.deep.equal({ field: '[0].latency_ms', message: '[0].latency_ms: must be > 0 (milliseconds)' });
    expect(refusal([{ selector: '*', memory: 0 }])?.field).to.equal('[0].memory');
    expect(refusal([{ selector: '*', cpu: -0.1 }])?.field).to.equal('[0].cpu');
    expect(refusal([{ selector: '*', error_rate: '0.1' }])?.field).to.equal('[0].error_rate');
    expect(refusal([{ error_rate: 0.1 }])?.field).to.equal('[0].selector');
    const unknown = refusal([{ selector: '*', 'error-rate': 0.1 }]);
    expect(unknown?.field).to.equal('[0]');
    expect(unknown?.message).to.contain('error-rate');
    expect(refusal(Array.from({ length: MAX_OBJECTIVES + 1 }, () => ({ selector: '*' })))?.message).to.contain(`at most ${MAX_OBJECTIVES}`);
  });

  it('accepts exactly the fractions in (0, 1] and the latencies > 0 (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), fc.double(), (f, ms) => {
        const okFraction = Number.isFinite(f) && f > 0 && f <= 1;
        expect(refusal([{ selector: '*', error_rate: f }]) === null).to.equal(okFraction);
        expect(refusal([{ selector: '*', memory: f }]) === null).to.equal(okFraction);
        expect(refusal([{ selector: 'ns/*', latency_ms: ms }]) === null).to.equal(Number.isFinite(ms) && ms > 0);
      }),
    );
  });
});
