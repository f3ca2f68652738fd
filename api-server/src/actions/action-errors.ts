/** Refusals of the action engine; the REST layer maps `kind` to 404 / 409 / 402. */
export type ActionErrorKind = 'not_found' | 'conflict' | 'edition';

export class ActionError extends Error {
  constructor(
    readonly kind: ActionErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ActionError';
  }
}

export const EDITION_MESSAGE = 'approving or rolling back actions needs the autopilot edition';

/**
 * Cluster mode: a decision (approve, reject, rollback, result) was handed to the replica owning the
 * action's workload, and no replica answered within the wait; the REST layer answers 503.
 */
export class ActionRoutingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionRoutingError';
  }
}
