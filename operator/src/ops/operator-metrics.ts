/** The operator's own metrics (operator.md §16), in a registry of its own. */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export class OperatorMetrics {
  readonly registry = new Registry();
  readonly reconciles = new Counter({ name: 'faultline_operator_reconcile_total', help: 'reconciles by kind and result', labelNames: ['kind', 'result'], registers: [this.registry] });
  readonly reconcileDuration = new Histogram({ name: 'faultline_operator_reconcile_duration_seconds', help: 'reconcile duration', labelNames: ['kind'], registers: [this.registry] });
  readonly queueDepth = new Gauge({ name: 'faultline_operator_workqueue_depth', help: 'keys waiting in the work queue', registers: [this.registry] });
  readonly leader = new Gauge({ name: 'faultline_operator_leader', help: '1 while this replica holds the Lease', registers: [this.registry] });
  readonly scale = new Counter({ name: 'faultline_operator_scale_total', help: 'scale executions by outcome', labelNames: ['outcome'], registers: [this.registry] });
  readonly restart = new Counter({ name: 'faultline_operator_restart_total', help: 'restart executions by outcome', labelNames: ['outcome'], registers: [this.registry] });
  readonly watchRestarts = new Counter({ name: 'faultline_operator_watch_restarts_total', help: 'watch restarts', labelNames: ['resource', 'reason'], registers: [this.registry] });
  readonly watchEvents = new Counter({ name: 'faultline_operator_watch_events_total', help: 'watch events', labelNames: ['resource', 'type'], registers: [this.registry] });
  readonly relists = new Counter({ name: 'faultline_operator_relists_total', help: 'full relists', labelNames: ['resource'], registers: [this.registry] });
}
