import { expect } from 'chai';
import { SettingsError, loadSettings } from '../../../api-server/src/config/load-settings.js';
import { LEVELDB_MAX_OPEN_FILES, LEVELDB_MIN_OPEN_FILES } from '../../../api-server/src/config/settings.js';

describe('LevelDB open files setting (SVC_LEVELDB_MAX_OPEN_FILES, --leveldb-max-open-files)', () => {
  it('has a default inside LevelDB’s range, and takes the flag over the variable', () => {
    const byDefault = loadSettings([], {}).leveldbMaxOpenFiles;
    expect(byDefault).to.be.within(LEVELDB_MIN_OPEN_FILES, LEVELDB_MAX_OPEN_FILES);
    expect(loadSettings([], { SVC_LEVELDB_MAX_OPEN_FILES: '500' }).leveldbMaxOpenFiles).to.equal(500);
    expect(loadSettings(['--leveldb-max-open-files', '74'], { SVC_LEVELDB_MAX_OPEN_FILES: '500' }).leveldbMaxOpenFiles).to.equal(74);
  });

  it('refuses what LevelDB would clip (below 74, above 50 000) or a fraction, naming the setting, the value and the range', () => {
    expect([LEVELDB_MIN_OPEN_FILES, LEVELDB_MAX_OPEN_FILES]).to.deep.equal([74, 50_000]);
    for (const bad of ['73', '50001', '100.5', 'many']) {
      expect(() => loadSettings([], { SVC_LEVELDB_MAX_OPEN_FILES: bad }), bad)
        .to.throw(SettingsError)
        .with.property('message')
        .that.contains('SVC_LEVELDB_MAX_OPEN_FILES')
        .and.contains(bad);
    }
    expect(() => loadSettings(['--leveldb-max-open-files', '10'], {}))
      .to.throw(SettingsError)
      .with.property('message')
      .that.contains('--leveldb-max-open-files')
      .and.contains('74..50000');
  });
});
