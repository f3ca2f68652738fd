/**
 * The consumer of the telemetry topic's group (partition-owner.ts): manual commits, the sticky
 * assignment protocol (sticky-group.ts), and timeouts long enough for a JoinGroup to wait for every
 * member to rejoin.
 */
import { Consumer, stringDeserializers } from '../kafka/kafka-client.js';
import { stickyAssigner, stickyProtocols } from './sticky-group.js';

export type StringConsumer = Consumer<string, string, string, string>;

export interface GroupConsumerOptions {
  brokers: string[];
  group: string;
  clientId: string;
  /** the partitions this member holds now, per topic (the sticky protocol's user data) */
  owned: () => ReadonlyMap<string, readonly number[]>;
  /** this member is about to rejoin (a rebalance starts) */
  rejoining: () => void;
  /** as group leader: the assignment it computed */
  assigned: (summary: { members: number; moved: number }) => void;
}

export function newGroupConsumer(options: GroupConsumerOptions): StringConsumer {
  return new Consumer({
    clientId: options.clientId,
    groupId: options.group,
    bootstrapBrokers: options.brokers,
    deserializers: stringDeserializers,
    autocommit: false,
    sessionTimeout: 10_000,
    heartbeatInterval: 1_000,
    rebalanceTimeout: 20_000,
    // a JoinGroup answer may wait for every member to rejoin (up to the rebalance timeout)
    timeout: 30_000,
    retries: 5,
    retryDelay: 300,
    protocols: stickyProtocols(options.owned, options.rejoining),
    partitionAssigner: stickyAssigner(options.assigned),
  });
}
