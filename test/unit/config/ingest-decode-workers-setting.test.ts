import { expect } from 'chai';
import { loadSettings, SettingsError } from '../../../api-server/src/config/load-settings.js';
import { decodeWorkerCount } from '../../../api-server/src/config/decode-workers.js';

describe('SVC_INGEST_DECODE_WORKERS: remote-write decode worker threads', () => {
  it('defaults to auto; a count or auto from the variable; the flag beats the variable', () => {
    expect(loadSettings([], {}).ingestDecodeWorkers).to.equal('auto');
    expect(loadSettings([], { SVC_INGEST_DECODE_WORKERS: '2' }).ingestDecodeWorkers).to.equal(2);
    expect(loadSettings([], { SVC_INGEST_DECODE_WORKERS: '0' }).ingestDecodeWorkers).to.equal(0);
    expect(loadSettings([], { SVC_INGEST_DECODE_WORKERS: 'auto' }).ingestDecodeWorkers).to.equal('auto');
    expect(loadSettings(['--ingest-decode-workers', '1'], { SVC_INGEST_DECODE_WORKERS: '2' }).ingestDecodeWorkers).to.equal(1);
  });

  it('a negative, fractional, too large count or another word stops start-up naming the setting and what is allowed', () => {
    for (const bad of ['-1', '1.5', '17', 'two', ' ', 'AUTO']) {
      expect(() => loadSettings([], { SVC_INGEST_DECODE_WORKERS: bad }), JSON.stringify(bad)).to.throw(SettingsError, /SVC_INGEST_DECODE_WORKERS.*auto or an integer 0\.\.16/);
    }
    // an empty variable counts as unset (every setting); an empty flag is a value
    expect(loadSettings([], { SVC_INGEST_DECODE_WORKERS: '' }).ingestDecodeWorkers).to.equal('auto');
    expect(() => loadSettings(['--ingest-decode-workers', ''], {})).to.throw(SettingsError, /--ingest-decode-workers.*auto or an integer 0\.\.16/);
  });

  it('auto is one worker from two cores on, none on one core; a count is taken as given', () => {
    expect(decodeWorkerCount('auto', 1)).to.equal(0);
    expect(decodeWorkerCount('auto', 2)).to.equal(1);
    expect(decodeWorkerCount('auto', 64)).to.equal(1);
    expect(decodeWorkerCount(0, 64)).to.equal(0);
    expect(decodeWorkerCount(3, 1)).to.equal(3);
  });
});
