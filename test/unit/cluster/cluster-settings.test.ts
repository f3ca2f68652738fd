/** The `cluster` section of the config file: standalone by default, errors name the path. */
import { expect } from 'chai';
import { parseClusterSettings } from '../../../api-server/src/cluster/cluster-settings.js';

describe('cluster settings', () => {
  it('is standalone when absent or disabled', () => {
    expect(parseClusterSettings(undefined, {})).to.deep.equal({ enabled: false });
    expect(parseClusterSettings({ enabled: false }, {})).to.deep.equal({ enabled: false });
  });

  it('fills the defaults and takes the replica id from HOSTNAME', () => {
    expect(parseClusterSettings({ enabled: true, brokers: ['kafka-0:9092'] }, { HOSTNAME: 'faultline-2' })).to.deep.equal({
      enabled: true,
      brokers: ['kafka-0:9092'],
      replicaId: 'faultline-2',
      group: 'faultline-analyzers',
      partitions: 12,
      checkpointMs: 30_000,
      actionTimeoutMs: 10_000,
      telemetryTopic: 'faultline.telemetry',
      stateTopic: 'faultline.state',
      controlTopic: 'faultline.control',
      historyTopic: 'faultline.history',
    });
  });

  it('names the bad field', () => {
    const error = (raw: unknown): string => {
      try {
        parseClusterSettings(raw, {});
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(error({ enabled: true })).to.equal('cluster.brokers: cluster mode needs brokers');
    expect(error({ enabled: true, brokers: ['kafka'] })).to.equal('cluster.brokers[0]: must be host:port');
    expect(error({ enabled: true, brokers: ['k:1'], partitions: 0 })).to.equal('cluster.partitions: must be at least 1');
    expect(error({ enabled: true, brokers: ['k:1'], topics: { telemetry: 'x', state: 'x' } })).to.equal('cluster.topics.state: must differ from topics.telemetry');
    expect(error({ enabled: true, brokers: ['k:1'], topics: { telemetry: 'bad topic' } })).to.match(/^cluster\.topics\.telemetry: must be a Kafka topic name/);
    expect(error({ enabled: true, brokers: ['k:1'], topics: { control: 'faultline.state' } })).to.equal('cluster.topics.control: must differ from the other topics');
    expect(error({ enabled: true, brokers: ['k:1'], topics: { history: 'faultline.telemetry' } })).to.equal('cluster.topics.history: must differ from the other topics');
    expect(error({ enabled: true, brokers: ['k:1'], action_timeout_seconds: 0 })).to.equal('cluster.action_timeout_seconds: must be at least 1');
    expect(error({ enabled: true, brokers: ['k:1'], shards: 3 })).to.match(/^cluster: /);
  });
});
