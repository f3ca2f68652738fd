import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { RAISED_INLINING_FLAGS, applyJitBudget } from '../../../api-server/src/config/jit-budget.js';
import { SettingsError, loadSettings } from '../../../api-server/src/config/load-settings.js';

describe('V8 inlining budget setting (SVC_JIT_BUDGET)', () => {
  it('is raised unless told, and default from the variable or the flag', () => {
    expect(loadSettings([], {}).jitBudget).to.equal('raised');
    expect(loadSettings([], { SVC_JIT_BUDGET: 'default' }).jitBudget).to.equal('default');
    expect(loadSettings(['--jit-budget', 'default'], { SVC_JIT_BUDGET: 'raised' }).jitBudget).to.equal('default');
  });

  it('refuses any other value, naming the variable and the allowed values', () => {
    expect(() => loadSettings([], { SVC_JIT_BUDGET: 'huge' }))
      .to.throw(SettingsError)
      .with.property('message')
      .that.contains('SVC_JIT_BUDGET')
      .and.contains('huge')
      .and.contains('raised or default');
  });

  it('raises flags that this node knows (an unknown flag would be ignored without a word)', () => {
    const known = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    for (const flag of RAISED_INLINING_FLAGS) {
      const name = flag.slice(0, flag.indexOf('='));
      expect(known, name).to.contain(`${name} (`);
    }
  });

  it('sets nothing for default and the raised flags otherwise', () => {
    expect(applyJitBudget('default')).to.deep.equal([]);
    expect(applyJitBudget('raised')).to.deep.equal(RAISED_INLINING_FLAGS);
  });
});
