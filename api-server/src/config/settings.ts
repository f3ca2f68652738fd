/**
 * The service's settings (runtime.md, Configuration) and their validation. One zod schema per
 * source shape; the merged result is validated once more so an invalid value stops start-up with
 * one line naming the setting, the value and what is allowed.
 */
import { z } from 'zod';
import type { EventBusSettings } from '../delivery/bus/bus-settings.js';
import type { SinkSettings } from '../delivery/sinks/sink-settings.js';
import type { ClusterSettings } from '../cluster/cluster-settings.js';
import { JIT_BUDGETS } from './jit-budget.js';
import { MAX_DECODE_WORKERS, type DecodeWorkersSetting } from './decode-workers.js';
import { MAX_WAITING_BUCKETS, MIN_WAITING_BUCKETS, type WaitingBucketsSetting } from './waiting-buckets.js';

/** LevelDB clips max_open_files to 64 table files + 10 others .. 50 000 (SanitizeOptions in db_impl.cc); a value outside is refused rather than clipped */
export const LEVELDB_MIN_OPEN_FILES = 74;
export const LEVELDB_MAX_OPEN_FILES = 50_000;

export const port = z.coerce.number().int('must be an integer').min(0, 'must be 0..65535').max(65535, 'must be 0..65535');

export const settingsSchema = z.object({
  port,
  otlpPort: port,
  /** the standard OTLP/HTTP listener (protobuf and JSON, gzip); 0 disables it */
  otlpHttpPort: port,
  statsdPort: port,
  grpcPort: port,
  dashboardPort: port,
  bindAddress: z.string().min(1, 'must not be empty'),
  dataDir: z.string().min(1, 'must not be empty'),
  apiKey: z.string().optional(),
  production: z.boolean(),
  edition: z.enum(['community', 'autopilot'], { message: 'must be community or autopilot' }),
  ingestRps: z.coerce.number().positive('must be > 0').finite('must be finite'),
  /** worker threads that decode remote-write protobuf bodies; 0: the event loop decodes; auto: decodeWorkerCount (docs/ingest-performance.md) */
  ingestDecodeWorkers: z.unknown().transform((value, ctx): DecodeWorkersSetting => {
    if (value === 'auto') return 'auto';
    const n = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? Number(value) : Number.NaN;
    if (Number.isInteger(n) && n >= 0 && n <= MAX_DECODE_WORKERS) return n;
    ctx.addIssue({ code: 'custom', message: `must be auto or an integer 0..${MAX_DECODE_WORKERS}` });
    return z.NEVER;
  }),
  /** the analysis backlog (workload-buckets not analysed yet) at which ingest answers 429 analysis_backlog; auto: maxWaitingBuckets */
  ingestMaxWaitingBuckets: z.unknown().transform((value, ctx): WaitingBucketsSetting => {
    if (value === 'auto') return 'auto';
    const n = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? Number(value) : Number.NaN;
    if (Number.isInteger(n) && n >= MIN_WAITING_BUCKETS && n <= MAX_WAITING_BUCKETS) return n;
    ctx.addIssue({ code: 'custom', message: `must be auto or an integer ${MIN_WAITING_BUCKETS}..${MAX_WAITING_BUCKETS}` });
    return z.NEVER;
  }),
  workloadWeights: z.unknown().optional(),
  workloadObjectives: z.unknown().optional(),
  tickSeconds: z.coerce.number().positive('must be > 0').max(3600, 'must be at most 3600'),
  /** how long a closed bucket waits for its other sources; undefined: 2 in cluster mode, else 0 (bucketGraceMsOf) */
  bucketGraceSeconds: z.coerce.number().min(0, 'must be >= 0').max(60, 'must be at most 60').optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { message: 'must be one of fatal, error, warn, info, debug, trace, silent' }),
  configFile: z.string().optional(),
  jitBudget: z.enum(JIT_BUDGETS, { message: 'must be raised or default' }),
  /** fraction of the memory limit above which new workloads are refused (observability/memory-guard.ts) */
  memoryHighWater: z.coerce.number().gt(0, 'must be > 0 and <= 1').max(1, 'must be > 0 and <= 1'),
  /** the memory limit in bytes; undefined: the container's cgroup limit, else none (no guard) */
  memoryLimitBytes: z.coerce.number().int('must be an integer').positive('must be > 0').optional(),
  /** LevelDB's open files: its table cache holds this many less 10 tables open, each mmapped, so it bounds the tables' resident pages (docs/memory.md) */
  leveldbMaxOpenFiles: z.coerce
    .number()
    .int('must be an integer')
    .min(LEVELDB_MIN_OPEN_FILES, `must be ${LEVELDB_MIN_OPEN_FILES}..${LEVELDB_MAX_OPEN_FILES} (LevelDB's own range)`)
    .max(LEVELDB_MAX_OPEN_FILES, `must be ${LEVELDB_MIN_OPEN_FILES}..${LEVELDB_MAX_OPEN_FILES} (LevelDB's own range)`),
  deployment: z.object({
    executionMode: z.enum(['auto', 'shadow', 'suggest'], { message: 'must be auto, shadow or suggest' }),
    autoActionConfidence: z.number().min(0, 'must be 0..1').max(1, 'must be 0..1'),
    namespaceAllowlist: z.array(z.string().min(1)),
    rateLimitPerHour: z.number().int('must be an integer').nonnegative('must be >= 0'),
    kpiRetentionDays: z.number().positive('must be > 0').max(400, 'must be at most 400'),
    actionExecutor: z.enum(['log', 'webhook', 'external'], { message: 'must be log, webhook or external' }),
    actionWebhookUrl: z.url({ message: 'must be an http(s) URL' }).optional(),
    executorTimeoutSeconds: z.number().positive('must be > 0'),
    /** how long the announced band must have been critical or worse before an action is created (actions/creation-gate.ts) */
    actionSustainSeconds: z.number().nonnegative('must be >= 0').max(3600, 'must be at most 3600'),
    calibrationSteps: z.number().int('must be an integer').positive('must be > 0'),
    /** minutes FusedR must stay in the emergency band before one source alone is announced above warning */
    singleSourceEmergencyMinutes: z.number().nonnegative('must be >= 0').max(60, 'must be at most 60'),
    simulationBaselineMinutes: z.number().nonnegative('must be >= 0').max(1440),
    /** validated by parseEventBusSettings while the YAML file is read */
    eventbus: z.custom<EventBusSettings>(),
    /** validated by parseSinkSettings while the YAML file is read */
    sinks: z.custom<SinkSettings>(),
    /** validated by parseClusterSettings while the YAML file is read */
    cluster: z.custom<ClusterSettings>(),
  }),
});

export type Settings = z.infer<typeof settingsSchema>;
export type DeploymentSettings = Settings['deployment'];

/** The YAML file (`--config` / `SVC_CONFIG`): the deployment names of the interface. */
export const yamlSchema = z
  .object({
    execution_mode: z.string().optional(),
    confidence_thresholds: z.object({ auto_action: z.number().optional() }).partial().optional(),
    namespace_allowlist: z.array(z.string()).optional(),
    rate_limit_per_hour: z.number().optional(),
    storage: z.object({ retention: z.object({ kpis_days: z.number().optional() }).partial().optional() }).partial().optional(),
    actions: z
      .object({ executor: z.string().optional(), webhook_url: z.string().optional(), executor_timeout_seconds: z.number().optional(), sustain_seconds: z.number().optional() })
      .partial()
      .optional(),
    baselines: z.object({ observation_window: z.number().optional() }).partial().optional(),
    alerts: z.object({ single_source_emergency_minutes: z.number().optional() }).partial().optional(),
    simulation: z.object({ baseline_minutes: z.number().optional() }).partial().optional(),
    eventbus: z.unknown().optional(),
    sinks: z.unknown().optional(),
    cluster: z.unknown().optional(),
  })
  .passthrough();

export type YamlSettings = z.infer<typeof yamlSchema>;

/** grace of a closed bucket in cluster mode unless set: a workload's sources reach the owner as separate Kafka records */
export const CLUSTER_BUCKET_GRACE_SECONDS = 2;

/** AnalysisConfig.bucketGraceMs of these settings */
export function bucketGraceMsOf(settings: Settings): number {
  return (settings.bucketGraceSeconds ?? (settings.deployment.cluster.enabled ? CLUSTER_BUCKET_GRACE_SECONDS : 0)) * 1000;
}
