/**
 * The one module that names the Kafka client library (`@platformatic/kafka`, chosen in
 * delivery/bus/kafka-driver.ts: pure TypeScript, maintained, installs from the npm registry
 * alone). The event bus's Kafka driver and cluster mode import the client from here, so the
 * library, its version and what of it the service uses are in one place; how its errors read is
 * in kafka-errors.ts beside it.
 */
export {
  Admin,
  Consumer,
  FetchIsolationLevels,
  ListOffsetTimestamps,
  ProduceAcks,
  Producer,
  stringDeserializers,
  stringSerializers,
} from '@platformatic/kafka';
export type { GroupAssignment, GroupPartitionsAssigner, GroupPartitionsAssignments, GroupProtocolSubscription, MessagesStream } from '@platformatic/kafka';
