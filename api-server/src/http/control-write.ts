/** A control write through the cluster's control topic that Kafka refused answers 503, naming the topic. */
import { ControlTopicError } from '../control/control-write-refused.js';
import { controlUnavailable } from '../model/http-errors.js';

export async function controlWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ControlTopicError) throw controlUnavailable(error.message);
    throw error;
  }
}
