import { expect } from 'chai';
import { loadSettings, SettingsError } from '../../../api-server/src/config/load-settings.js';

describe('SVC_OTLP_HTTP_PORT: the standard OTLP/HTTP listener', () => {
  it('defaults to 4318; the flag beats the variable; 0 is allowed (disables the listener)', () => {
    expect(loadSettings([], {}).otlpHttpPort).to.equal(4318);
    expect(loadSettings([], { SVC_OTLP_HTTP_PORT: '14318' }).otlpHttpPort).to.equal(14318);
    expect(loadSettings(['--otlp-http-port', '0'], { SVC_OTLP_HTTP_PORT: '14318' }).otlpHttpPort).to.equal(0);
  });

  it('an invalid port stops start-up naming the setting', () => {
    expect(() => loadSettings([], { SVC_OTLP_HTTP_PORT: '70000' })).to.throw(SettingsError, 'SVC_OTLP_HTTP_PORT');
  });
});
