import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { SettingsError, loadSettings } from '../../../api-server/src/config/load-settings.js';
import { CLUSTER_BUCKET_GRACE_SECONDS, bucketGraceMsOf } from '../../../api-server/src/config/settings.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('bucket grace setting (SVC_BUCKET_GRACE_SECONDS, --bucket-grace-seconds)', () => {
  it('is 0 standalone unless told: analytics.md §0.1 as written', () => {
    expect(bucketGraceMsOf(loadSettings([], {}))).to.equal(0);
    expect(bucketGraceMsOf(loadSettings([], { SVC_BUCKET_GRACE_SECONDS: '1.5' }))).to.equal(1_500);
    expect(bucketGraceMsOf(loadSettings(['--bucket-grace-seconds', '3'], { SVC_BUCKET_GRACE_SECONDS: '1' }))).to.equal(3_000);
  });

  it('is 2 s in cluster mode unless told, where a workload’s sources come as separate Kafka records', async () => {
    const dir = await makeTempDir('bucket-grace');
    try {
      const file = join(dir.path, 'faultline.yaml');
      writeFileSync(file, 'cluster:\n  enabled: true\n  brokers: [127.0.0.1:9092]\n  replica_id: r0\n');
      expect(CLUSTER_BUCKET_GRACE_SECONDS).to.equal(2);
      expect(bucketGraceMsOf(loadSettings(['--config', file], {}))).to.equal(2_000);
      expect(bucketGraceMsOf(loadSettings(['--config', file], { SVC_BUCKET_GRACE_SECONDS: '0' }))).to.equal(0);
    } finally {
      await dir.remove();
    }
  });

  it('refuses a negative or too long grace, naming the variable, the value and the rule', () => {
    expect(() => loadSettings([], { SVC_BUCKET_GRACE_SECONDS: '-1' }))
      .to.throw(SettingsError)
      .with.property('message')
      .that.contains('SVC_BUCKET_GRACE_SECONDS')
      .and.contains('-1')
      .and.contains('>= 0');
    expect(() => loadSettings(['--bucket-grace-seconds', '61'], {}))
      .to.throw(SettingsError)
      .with.property('message')
      .that.contains('--bucket-grace-seconds')
      .and.contains('at most 60');
  });
});
