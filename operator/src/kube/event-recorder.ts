/** Kubernetes Events (events.k8s.io/v1) on the objects the operator acts on (operator.md §16). */
import { randomBytes } from 'node:crypto';
import type { EventsV1Api } from '@kubernetes/client-node';
import { V1MicroTime } from '@kubernetes/client-node';
import type { Logger } from 'pino';

export interface EventTarget {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid?: string;
}

export class EventRecorder {
  constructor(
    private readonly api: EventsV1Api,
    private readonly controller: string,
    private readonly instance: string,
    private readonly logger: Logger,
  ) {}

  /** Best effort: an Event that cannot be written is logged, never fails a reconcile. */
  async record(target: EventTarget, type: 'Normal' | 'Warning', reason: string, action: string, note: string): Promise<void> {
    try {
      await this.api.createNamespacedEvent({
        namespace: target.namespace,
        body: {
          metadata: { name: `${target.name}.${randomBytes(8).toString('hex')}`, namespace: target.namespace },
          eventTime: new V1MicroTime(),
          reportingController: this.controller,
          reportingInstance: this.instance,
          action,
          reason,
          type,
          note: note.slice(0, 1024),
          regarding: { apiVersion: target.apiVersion, kind: target.kind, namespace: target.namespace, name: target.name, uid: target.uid },
        },
      });
    } catch (error) {
      this.logger.warn({ err: error, reason, target }, 'event not recorded');
    }
  }
}
