import { expect } from 'chai';
import { startTestService } from '../../support/service.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('failure objectives across a restart (SVC_WORKLOAD_OBJECTIVES, LevelDB)', function () {
  this.timeout(60_000);

  it('bootstraps from the env, keeps a posted list across a restart (the env then ignored), refuses a bad env naming the field', async () => {
    const dir = await makeTempDir('objectives');
    const env = { SVC_WORKLOAD_OBJECTIVES: JSON.stringify([{ selector: '*', error_rate: 0.2 }]) };
    try {
      const first = await startTestService({ dataDir: dir.path, env });
      try {
        expect((await first.get('/config/objectives')).body).to.deep.equal([{ selector: '*', error_rate: 0.2 }]);
        expect((await first.post('/config/objectives', [{ selector: 'shop/*', latency_ms: 450 }])).status).to.equal(200);
      } finally {
        await first.stop();
      }
      const second = await startTestService({ dataDir: dir.path, env });
      try {
        expect((await second.get('/config/objectives')).body).to.deep.equal([{ selector: 'shop/*', latency_ms: 450 }]);
      } finally {
        await second.stop();
      }
      let refused: unknown;
      try {
        // the settings are refused before the data dir is opened
        const bad = await startTestService({ dataDir: dir.path, env: { SVC_WORKLOAD_OBJECTIVES: JSON.stringify([{ selector: '*', error_rate: 20 }]) } });
        await bad.stop();
      } catch (error) {
        refused = error;
      }
      expect(String(refused)).to.contain('invalid setting SVC_WORKLOAD_OBJECTIVES: [0].error_rate must be <= 1');
      let notJson: unknown;
      try {
        const bad = await startTestService({ dataDir: dir.path, env: { SVC_WORKLOAD_OBJECTIVES: '[{' } });
        await bad.stop();
      } catch (error) {
        notJson = error;
      }
      expect(String(notJson)).to.contain('invalid setting SVC_WORKLOAD_OBJECTIVES: not JSON');
    } finally {
      await dir.remove();
    }
  });
});
