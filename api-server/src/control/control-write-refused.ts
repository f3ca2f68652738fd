/**
 * A control write that the replicated store refused (cluster mode: the control topic did not take
 * or did not read back the record). The HTTP edge answers it with 503 naming the topic; whoever
 * implements ControlWrites throws it, so the edge needs no knowledge of the implementation.
 */
export class ControlTopicError extends Error {}
