import { expect } from 'chai';
import { loadOperatorSettings } from '../../../operator/src/settings.js';

describe('operator: settings from the environment', () => {
  it('defaults: loopback sidecar, crd weights, 5 s poll, 15 s lease, identity POD_NAME_<8 hex>', () => {
    const s = loadOperatorSettings({ POD_NAME: 'faultline-0', POD_NAMESPACE: 'faultline' });
    expect(s).to.include({ engineUrl: 'http://127.0.0.1:8080/api/v2', namespace: 'faultline', weightsSource: 'crd', actionPollSeconds: 5, leaseDurationSeconds: 15, opsPort: 8082, dryRun: false, maxReplicas: 50 });
    expect(s.identity).to.match(/^faultline-0_[0-9a-f]{8}$/);
    expect(s.watchNamespaces).to.equal(undefined);
  });

  it('lists split on commas; bad values name the variable', () => {
    expect(loadOperatorSettings({ OPERATOR_WATCH_NAMESPACES: 'a, b,' }).watchNamespaces).to.deep.equal(['a', 'b']);
    expect(() => loadOperatorSettings({ POD_NAMESPACE: 'Bad_NS' })).to.throw(/POD_NAMESPACE/);
    expect(() => loadOperatorSettings({ OPERATOR_WEIGHTS_SOURCE: 'both' })).to.throw(/OPERATOR_WEIGHTS_SOURCE/);
    expect(() => loadOperatorSettings({ FAULTLINE_ENGINE_URL: 'not a url' })).to.throw(/FAULTLINE_ENGINE_URL/);
  });
});
