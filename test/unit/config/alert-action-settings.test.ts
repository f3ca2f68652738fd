import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { SettingsError, loadSettings } from '../../../api-server/src/config/load-settings.js';
import { ACTION_SUSTAIN_MS } from '../../../api-server/src/actions/creation-gate.js';
import { DEFAULT_ANALYSIS_CONFIG } from '../../../api-server/src/analysis/config.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('action sustain setting (actions.sustain_seconds)', () => {
  it('defaults to the creation gate\'s 2 minutes of confirmed critical, and the YAML file changes it', async () => {
    expect(loadSettings([], {}).deployment.actionSustainSeconds * 1000).to.equal(ACTION_SUSTAIN_MS);
    expect(ACTION_SUSTAIN_MS).to.equal(120_000);
    const dir = await makeTempDir('sustain');
    try {
      const file = join(dir.path, 'faultline.yaml');
      writeFileSync(file, 'actions:\n  sustain_seconds: 0\n');
      expect(loadSettings(['--config', file], {}).deployment.actionSustainSeconds).to.equal(0);
      writeFileSync(file, 'actions:\n  sustain_seconds: 300\n');
      expect(loadSettings(['--config', file], {}).deployment.actionSustainSeconds).to.equal(300);
    } finally {
      await dir.remove();
    }
  });

  it('refuses a negative or over-an-hour sustain, naming the key and the rule', async () => {
    const dir = await makeTempDir('sustain-bad');
    try {
      const file = join(dir.path, 'faultline.yaml');
      writeFileSync(file, 'actions:\n  sustain_seconds: -5\n');
      expect(() => loadSettings(['--config', file], {})).to.throw(SettingsError).with.property('message').that.contains('actions.sustain_seconds').and.contains('>= 0');
      writeFileSync(file, 'actions:\n  sustain_seconds: 7200\n');
      expect(() => loadSettings(['--config', file], {})).to.throw(SettingsError).with.property('message').that.contains('actions.sustain_seconds').and.contains('at most 3600');
    } finally {
      await dir.remove();
    }
  });
});

describe('single-source emergency setting (alerts.single_source_emergency_minutes)', () => {
  it('defaults to 6 minutes (24 steps of 15 s, the analysis config\'s default) and refuses more than an hour', async () => {
    expect(loadSettings([], {}).deployment.singleSourceEmergencyMinutes).to.equal(6);
    expect(DEFAULT_ANALYSIS_CONFIG.singleSourceEmergencySteps).to.equal(24);
    const dir = await makeTempDir('solo');
    try {
      const file = join(dir.path, 'faultline.yaml');
      writeFileSync(file, 'alerts:\n  single_source_emergency_minutes: 0\n');
      expect(loadSettings(['--config', file], {}).deployment.singleSourceEmergencyMinutes).to.equal(0);
      writeFileSync(file, 'alerts:\n  single_source_emergency_minutes: 61\n');
      expect(() => loadSettings(['--config', file], {})).to.throw(SettingsError).with.property('message').that.contains('alerts.single_source_emergency_minutes').and.contains('at most 60');
    } finally {
      await dir.remove();
    }
  });
});
