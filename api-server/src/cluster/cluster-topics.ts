/**
 * The topics of cluster mode, created when absent: the telemetry topic (time retention, the
 * broker's default), the state topic (`cleanup.policy=compact`: the latest record per key is
 * kept, so it holds every workload's latest analysis state and read view) and the control topic
 * (compacted, one partition). Both get the same
 * partition count; an existing topic keeps its own, and the two must agree (a workload's
 * telemetry and state share a partition number).
 */
import { Admin } from '@platformatic/kafka';

export interface TopicLayout {
  partitions: number;
}

const alreadyExists = (error: unknown): boolean =>
  /already exists/i.test(error instanceof Error ? `${error.message} ${JSON.stringify((error as Error & { errors?: unknown }).errors ?? '')}` : String(error));

export async function ensureClusterTopics(brokers: string[], telemetryTopic: string, stateTopic: string, controlTopic: string, partitions: number, clientId: string): Promise<TopicLayout> {
  const admin = new Admin({ clientId: `${clientId}-admin`, bootstrapBrokers: brokers, timeout: 10_000, retries: 3, retryDelay: 500 });
  try {
    const existing = new Set(await admin.listTopics().catch((e: unknown) => {
      throw new Error(`cluster: listing the topics on ${brokers.join(',')} failed: ${(e as Error).message}`);
    }));
    if (!existing.has(telemetryTopic)) {
      await admin.createTopics({ topics: [telemetryTopic], partitions, replicas: 1 }).catch((e: unknown) => {
        if (!alreadyExists(e)) throw e;
      });
    }
    if (!existing.has(stateTopic)) {
      await admin
        .createTopics({ topics: [stateTopic], partitions, replicas: 1, configs: [{ name: 'cleanup.policy', value: 'compact' }] })
        .catch((e: unknown) => {
          if (!alreadyExists(e)) throw e;
        });
    }
    if (!existing.has(controlTopic)) {
      // one partition: every replica applies the control changes in one order
      await admin
        .createTopics({ topics: [controlTopic], partitions: 1, replicas: 1, configs: [{ name: 'cleanup.policy', value: 'compact' }] })
        .catch((e: unknown) => {
          if (!alreadyExists(e)) throw e;
        });
    }
    const metadata = await admin.metadata({ topics: [telemetryTopic, stateTopic] }).catch((e: unknown) => {
      throw new Error(`cluster: reading the metadata of ${telemetryTopic} and ${stateTopic} failed: ${(e as Error).message}`);
    });
    const t = metadata.topics.get(telemetryTopic)?.partitionsCount;
    const s = metadata.topics.get(stateTopic)?.partitionsCount;
    if (t === undefined || s === undefined) throw new Error(`cluster topics ${telemetryTopic} / ${stateTopic} are not visible after creation`);
    if (t !== s) throw new Error(`cluster topics disagree: ${telemetryTopic} has ${t} partitions, ${stateTopic} has ${s}; they must match`);
    return { partitions: t };
  } finally {
    await admin.close().catch(() => undefined);
  }
}
