/** The `sinks` section of the YAML file: defaults, env secrets, and errors that name the field. */
import { expect } from 'chai';
import fc from 'fast-check';
import { createSinks, parseSinkSettings } from '../../../../api-server/src/delivery/sinks/sink-settings.js';
import { parseEventBusSettings } from '../../../../api-server/src/delivery/bus/bus-settings.js';

const problem = (raw: unknown, env: NodeJS.ProcessEnv = {}): string => {
  try {
    parseSinkSettings(raw, env);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('sink settings', () => {
  it('parses every sink with its defaults and creates them', () => {
    const s = parseSinkSettings(
      {
        webhooks: [{ name: 'ops', url: 'https://hooks.example/x', secret_env: 'HOOK_SECRET' }],
        alertmanager: { url: 'http://am:9093' },
        pagerduty: { routing_key: 'R1' },
      },
      { HOOK_SECRET: 'from-env' },
    );
    expect(s.timeoutMs).to.equal(10_000);
    expect(s.webhooks[0]).to.deep.equal({ name: 'ops', url: 'https://hooks.example/x', secret: 'from-env', events: ['rupture.state_changed', 'action.tier1'], minSeverity: 'warning' });
    expect(s.pagerduty).to.deep.equal({ routingKey: 'R1', url: 'https://events.pagerduty.com/v2/enqueue' });
    expect(createSinks(s).map((x) => x.name)).to.deep.equal(['webhook:ops', 'alertmanager', 'pagerduty']);
    expect(createSinks(parseSinkSettings(undefined, {}))).to.deep.equal([]);
  });

  it('names the field and the reason of every refusal', () => {
    expect(problem({ webhooks: [{ name: 'ops', url: 'ftp://x' }] })).to.equal('sinks.webhooks[0].url: must be an http(s) URL');
    expect(problem({ webhooks: [{ name: 'Ops!', url: 'http://x' }] })).to.equal('sinks.webhooks[0].name: must be 1-63 of a-z 0-9 -');
    expect(problem({ webhooks: [{ name: 'a', url: 'http://x', events: ['nope'] }] })).to.equal('sinks.webhooks[0].events[0]: must be rupture.state_changed or action.tier1');
    expect(problem({ webhooks: [{ name: 'a', url: 'http://x' }, { name: 'a', url: 'http://y' }] })).to.equal('sinks.webhooks: webhook names must be unique');
    expect(problem({ webhooks: [{ name: 'a', url: 'http://x', secret_env: 'MISSING' }] })).to.equal('sinks.webhooks[0].secret_env: environment variable MISSING is not set');
    expect(problem({ pagerduty: {} })).to.equal('sinks.pagerduty: give routing_key or routing_key_env (one of them)');
    expect(problem({ alertmanager: { url: 'http://am', extra: 1 } })).to.match(/^sinks\.alertmanager: /);
    expect(problem({ timeout_seconds: 0 })).to.equal('sinks.timeout_seconds: must be > 0');
  });

  it('eventbus: nats, kafka with defaults, none, and field-named errors', () => {
    expect(parseEventBusSettings(undefined)).to.deep.equal({ driver: 'none', backlog: 4096 });
    expect(parseEventBusSettings({ driver: 'kafka', brokers: ['k:9092'] })).to.deep.equal({ driver: 'kafka', brokers: ['k:9092'], topic: 'svc.events', transactionalId: 'faultline-api-server', backlog: 4096 });
    expect(parseEventBusSettings({ driver: 'nats', url: 'nats://n:4222' })).to.deep.equal({ driver: 'nats', servers: ['nats://n:4222'], backlog: 4096 });
    const bad = (raw: unknown): string => {
      try {
        parseEventBusSettings(raw);
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(bad({ driver: 'kafka', brokers: ['nohost'] })).to.equal('eventbus.brokers[0]: must be host:port');
    expect(bad({ driver: 'kafka' })).to.match(/^eventbus\.brokers: /);
    expect(bad({ driver: 'redis' })).to.match(/^eventbus\.driver: /);
    expect(bad({ driver: 'nats' })).to.equal('eventbus.servers: nats needs servers (or url)');
    expect(bad({ driver: 'kafka', brokers: ['k:1'], topic: 'bad topic' })).to.match(/^eventbus\.topic: must be a Kafka topic name/);
  });

  it('property: any value is either accepted or refused with a message naming a sinks field', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const message = problem(raw);
        expect(message === 'accepted' || message.startsWith('sinks')).to.equal(true);
      }),
    );
  });
});
