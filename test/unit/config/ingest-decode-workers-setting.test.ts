import { expect } from 'chai';
import { loadSettings, SettingsError } from '../../../api-server/src/config/load-settings.js';

describe('SVC_INGEST_DECODE_WORKERS: remote-write decode worker threads', () => {
  it('defaults to 0 (the event loop decodes); the flag beats the variable', () => {
    expect(loadSettings([], {}).ingestDecodeWorkers).to.equal(0);
    expect(loadSettings([], { SVC_INGEST_DECODE_WORKERS: '2' }).ingestDecodeWorkers).to.equal(2);
    expect(loadSettings(['--ingest-decode-workers', '1'], { SVC_INGEST_DECODE_WORKERS: '2' }).ingestDecodeWorkers).to.equal(1);
  });

  it('a negative, fractional or too large count stops start-up naming the setting', () => {
    for (const bad of ['-1', '1.5', '17', 'two']) expect(() => loadSettings([], { SVC_INGEST_DECODE_WORKERS: bad })).to.throw(SettingsError, 'SVC_INGEST_DECODE_WORKERS');
  });
});
