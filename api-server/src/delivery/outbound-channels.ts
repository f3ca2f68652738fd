/**
 * The outbound channels the configuration asks for: the bus driver of `eventbus.driver` (none,
 * NATS or Kafka) and one channel per configured sink. Only construction here; nothing connects
 * until the delivery workers start.
 */
import { createSinks, type SinkSettings } from './sinks/sink-settings.js';
import { SinkChannel, type SinkChannelHooks } from './sinks/sink-channel.js';
import { BusChannel } from './bus/bus-channel.js';
import { KafkaBusDriver } from './bus/kafka-driver.js';
import { NatsBusDriver } from './bus/nats-driver.js';
import type { EventBusSettings } from './bus/bus-settings.js';
import type { OutboundChannel } from './delivery-worker.js';

/** the sections of the deployment settings (config/settings.ts) that name outbound channels */
export interface OutboundSettings {
  eventbus: EventBusSettings;
  sinks: SinkSettings;
}

export interface ChannelLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export function createOutboundChannels(deployment: OutboundSettings, hooks: SinkChannelHooks & { logger: ChannelLogger }): OutboundChannel[] {
  const channels: OutboundChannel[] = [];
  const bus = deployment.eventbus;
  const logger = { info: (f: Record<string, unknown>, m: string) => hooks.logger.info(f, m), warn: (f: Record<string, unknown>, m: string) => hooks.logger.warn(f, m) };
  if (bus.driver === 'nats') {
    channels.push(new BusChannel(new NatsBusDriver({ servers: bus.servers, token: bus.token, user: bus.user, pass: bus.pass, logger })));
  } else if (bus.driver === 'kafka') {
    channels.push(new BusChannel(new KafkaBusDriver({ brokers: bus.brokers, topic: bus.topic, transactionalId: bus.transactionalId, logger })));
  }
  for (const sink of createSinks(deployment.sinks)) channels.push(new SinkChannel(sink, hooks));
  return channels;
}
