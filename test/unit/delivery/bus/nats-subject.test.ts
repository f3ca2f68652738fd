/** NATS subjects of the bus: the workload key verbatim after `svc.rupture.`, valid and reversible. */
import { expect } from 'chai';
import fc from 'fast-check';
import { RUPTURE_SUBJECT_PREFIX, TIER1_SUBJECT } from '../../../../api-server/src/delivery/envelope.js';
import { isPublishableSubject, workloadFromSubject } from '../../../../api-server/src/delivery/bus/nats-driver.js';

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
const subdomain = fc.array(label, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.'));
const kind = fc.constantFrom('Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Rollout');

describe('NATS subjects of the event bus', () => {
  it('keeps the key verbatim: `/` stays inside the token, a dot adds tokens', () => {
    expect(isPublishableSubject('svc.rupture.shop/Deployment/cart')).to.equal(true);
    expect('svc.rupture.shop/Deployment/cart'.split('.')).to.have.length(3);
    expect('svc.rupture.shop/Deployment/api.v2'.split('.')).to.have.length(4);
    expect(workloadFromSubject('svc.rupture.shop/Deployment/api.v2')).to.equal('shop/Deployment/api.v2');
    expect(workloadFromSubject(TIER1_SUBJECT)).to.equal(undefined);
    expect(isPublishableSubject(TIER1_SUBJECT)).to.equal(true);
  });

  it('refuses what NATS refuses: empty tokens, wildcards, whitespace', () => {
    for (const bad of ['', 'svc..x', 'svc.rupture.', 'svc.*.x', 'svc.>', 'svc.a b']) expect(isPublishableSubject(bad), bad).to.equal(false);
  });

  it('property: every Kubernetes workload key gives a valid subject that maps back to the key', () => {
    fc.assert(
      fc.property(label, kind, subdomain, (ns, k, name) => {
        const key = `${ns}/${k}/${name}`;
        const subject = RUPTURE_SUBJECT_PREFIX + key;
        expect(isPublishableSubject(subject)).to.equal(true);
        expect(workloadFromSubject(subject)).to.equal(key);
        // `svc.rupture.>` matches it: the first two tokens are fixed and at least one follows
        const tokens = subject.split('.');
        expect(tokens.slice(0, 2)).to.deep.equal(['svc', 'rupture']);
        expect(tokens.length).to.be.greaterThan(2);
      }),
    );
  });
});
