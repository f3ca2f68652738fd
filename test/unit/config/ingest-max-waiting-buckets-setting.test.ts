import { expect } from 'chai';
import { SettingsError, loadSettings } from '../../../api-server/src/config/load-settings.js';
import { maxWaitingBuckets } from '../../../api-server/src/config/waiting-buckets.js';

describe('SVC_INGEST_MAX_WAITING_BUCKETS: the analysis backlog bound', () => {
  it('is auto unless told; a count from the variable or the flag, the flag first', () => {
    expect(loadSettings([], {}).ingestMaxWaitingBuckets).to.equal('auto');
    expect(loadSettings([], { SVC_INGEST_MAX_WAITING_BUCKETS: '5000' }).ingestMaxWaitingBuckets).to.equal(5000);
    expect(loadSettings(['--ingest-max-waiting-buckets', '2000'], { SVC_INGEST_MAX_WAITING_BUCKETS: '5000' }).ingestMaxWaitingBuckets).to.equal(2000);
  });

  it('refuses anything else, naming the variable and what is allowed', () => {
    for (const bad of ['999', '1.5', 'lots', '100000001']) {
      const load = () => loadSettings([], { SVC_INGEST_MAX_WAITING_BUCKETS: bad });
      expect(load).to.throw(SettingsError, `SVC_INGEST_MAX_WAITING_BUCKETS="${bad}"`);
      expect(load).to.throw(SettingsError, 'must be auto or an integer 1000..100000000');
    }
  });

  it('auto is a tenth of the V8 heap limit at 1 KB a bucket, at least 100 000; a count is taken as given', () => {
    // the manifests' --max-old-space-size=2560 (heap_size_limit 2 560 MB + young generation; 2 560 MB here by hand)
    expect(maxWaitingBuckets('auto', 2560 * 1_048_576)).to.equal(262_144);
    expect(maxWaitingBuckets('auto', 512 * 1_048_576)).to.equal(100_000);
    expect(maxWaitingBuckets(5000, 2560 * 1_048_576)).to.equal(5000);
  });
});
