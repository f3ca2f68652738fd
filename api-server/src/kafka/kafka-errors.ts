/**
 * Reading the errors of `@platformatic/kafka`: a request that failed on several brokers or
 * retries comes back as one error wrapping others (`errors`), and the broker's error code sits in
 * enumerable fields (`apiId`), not in the message. One text of all of it, to match on.
 */
export function kafkaErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const nested = (error as Error & { errors?: unknown }).errors;
  let fields = '';
  try {
    fields = JSON.stringify(error);
  } catch {
    // a circular field: the messages are enough
  }
  return `${error.message} ${fields} ${Array.isArray(nested) ? nested.map(kafkaErrorText).join(' ') : ''}`;
}

/** CreateTopics of a topic that is there already (another replica was first) */
export const topicAlreadyExists = (error: unknown): boolean => /already exists/i.test(kafkaErrorText(error));
