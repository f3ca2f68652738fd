/** Everything the HTTP routes reach: built once by the server and handed to every route module. */
import type { Logger } from 'pino';
import type { ActionEngine } from '../actions/action-engine.js';
import type { ActionDecisions } from '../actions/action-engine-types.js';
import type { AnalysisCore } from '../analysis/contract.js';
import type { Settings } from '../config/settings.js';
import type { ControlPlane, ControlWrites } from '../control/control-plane.js';
import type { EventHub } from '../events/event-hub.js';
import type { EventPublisher } from '../events/event-publisher.js';
import type { IngestPipeline } from '../pipeline/ingest-pipeline.js';
import type { IngestSink } from '../pipeline/ingest-sink.js';
import type { TokenBucket } from '../pipeline/token-bucket.js';
import type { SimulationInjector } from '../simulation/injector.js';
import type { AnalysisStore } from '../storage/analysis-store.js';
import type { SelfMetrics } from '../observability/self-metrics.js';
import type { MemoryGuard } from '../observability/memory-guard.js';
import type { BearerKey } from './bearer-auth.js';
import type { WorkloadReads } from '../reads/workload-reads.js';
import type { ClusterStatus } from '../model/cluster-status.js';

export interface ServiceContext {
  settings: Settings;
  version: string;
  startedAtMs: number;
  logger: Logger;
  auth: BearerKey;
  ready: () => boolean;
  now: () => number;
  /** 12 lower-case hex characters from a CSPRNG */
  newHexId: () => string;
  core: AnalysisCore;
  /** the read routes' source: local, or every replica's workloads in cluster mode */
  reads: WorkloadReads;
  pipeline: IngestPipeline;
  /** where admitted telemetry goes: the local pipeline, or the cluster telemetry topic */
  ingest: IngestSink;
  bucket: TokenBucket;
  store: AnalysisStore;
  hub: EventHub;
  /** the outbox and the outbound channels (bus, sinks) */
  publisher: EventPublisher;
  actions: ActionEngine;
  /** approve, reject, rollback, result: the engine itself, or (cluster mode) the owner of the action's workload */
  actionDecisions: ActionDecisions;
  control: ControlPlane;
  /** writes of the control plane: the plane itself, or the control topic in cluster mode */
  controlWrites: ControlWrites;
  /** engages (true) or releases the emergency stop; in cluster mode on every replica, through the control topic */
  emergencyStop: (on: boolean, nowMs: number) => Promise<number | null>;
  injector: SimulationInjector;
  metrics: SelfMetrics;
  /** the high-water guard: resident memory against the limit (docs/memory.md) */
  memoryGuard: MemoryGuard;
  /** cluster mode only: this replica's partitions and the workloads it analyses */
  clusterStatus?: () => ClusterStatus;
  /** registers cleanup for shutdown (open SSE streams) */
  onClose: (fn: () => void) => void;
  /** bound ports, filled once listening */
  ports: { rest: number; otlp: number; /** the standard OTLP/HTTP listener; 0 when disabled */ otlpHttp: number; dashboard: number; statsd: number; grpc: number };
}
