import { expect } from 'chai';
import { RESTARTED_AT, restartStamp } from '../../../operator/src/reconcile/restart-executor.js';
import { rollbackRefusal } from '../../../api-server/src/actions/rollback-refusal.js';

describe('restart: the annotation kubectl rollout restart writes', () => {
  it('is kubectl.kubernetes.io/restartedAt with an RFC 3339 time in whole seconds', () => {
    expect(RESTARTED_AT).to.equal('kubectl.kubernetes.io/restartedAt');
    expect(restartStamp(Date.parse('2026-11-27T01:02:03.456Z'))).to.equal('2026-11-27T01:02:03Z');
  });

  it('a rollback of a restart or an alert is refused with the reason', () => {
    expect(rollbackRefusal('restart')).to.equal('a restart cannot be rolled back: the rolling restart replaced the pods and there is no previous state to restore');
    expect(rollbackRefusal('alert')).to.equal('an action of type alert cannot be rolled back: it changed nothing in the cluster to restore');
  });
});
