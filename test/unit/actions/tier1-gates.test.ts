import { expect } from 'chai';
import type { Action } from '../../../api-server/src/actions/action.js';
import type { GateFacts, GateSettings } from '../../../api-server/src/actions/tier1-gates.js';
import { checkTier1Gates } from '../../../api-server/src/actions/tier1-gates.js';

const action: Action = {
  id: 'act_000000000001',
  workload: 'shop/Deployment/cart',
  type: 'scale',
  params: { delta: 2 },
  tier: 1,
  state: 'pending',
  ruptureId: 'r_000000000001',
  createdAtMs: 0,
  updatedAtMs: 0,
  executedAtMs: null,
  description: 'scale shop/Deployment/cart by +2 replicas',
  confidence: 0.9,
  fusedR: 4.5,
  triggerSignal: 'stress',
  previousReplicas: null,
  reason: null,
  executor: 'internal',
  approvedBy: null,
  approvedAtMs: null,
  blockedBy: null,
  rollbackRequested: false,
  execution: null,
};

const open: GateSettings = {
  edition: 'autopilot',
  executionMode: 'auto',
  autoActionConfidence: 0.85,
  namespaceAllowlist: ['shop'],
  rateLimitPerHour: 6,
  cooldownMs: 300_000,
};

const clear: GateFacts = {
  confidence: 0.9,
  emergencyStop: false,
  suppressed: false,
  executionsInWindow: 0,
  lastExecutionOfTypeMs: null,
  nowMs: 1_000_000,
};

describe('Tier-1 gates', () => {
  it('pass when every gate holds', () => {
    expect(checkTier1Gates(action, open, clear)).to.deep.equal({ pass: true });
  });

  const cases: [string, Partial<GateSettings>, Partial<GateFacts>][] = [
    ['edition', { edition: 'community' }, {}],
    ['execution_mode', { executionMode: 'suggest' }, {}],
    ['execution_mode', { executionMode: 'shadow' }, {}],
    ['confidence', {}, { confidence: 0.84 }],
    ['namespace_allowlist', { namespaceAllowlist: ['payments'] }, {}],
    ['namespace_allowlist', { namespaceAllowlist: [] }, {}],
    ['rate_limit', {}, { executionsInWindow: 6 }],
    ['emergency_stop', {}, { emergencyStop: true }],
    ['suppression', {}, { suppressed: true }],
    ['cooldown', {}, { lastExecutionOfTypeMs: 1_000_000 - 299_000 }],
  ];
  for (const [gate, settings, facts] of cases) {
    it(`block on ${gate} ${JSON.stringify({ ...settings, ...facts })}`, () => {
      const verdict = checkTier1Gates(action, { ...open, ...settings }, { ...clear, ...facts });
      expect(verdict.pass).to.equal(false);
      if (!verdict.pass) {
        expect(verdict.gate).to.equal(gate);
        expect(verdict.reason).to.be.a('string').and.not.equal('');
      }
    });
  }

  it('accept confidence exactly at the threshold and a cooldown that just ended', () => {
    expect(checkTier1Gates(action, open, { ...clear, confidence: 0.85, lastExecutionOfTypeMs: 1_000_000 - 300_000 })).to.deep.equal({ pass: true });
  });
});
