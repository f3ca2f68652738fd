/**
 * Reads the settings: command-line flag > environment variable > YAML file > default
 * (runtime.md). Throws SettingsError with one line naming the setting, the value and the rule.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import type { ZodError } from 'zod';
import { apiKeyProblem } from './api-key.js';
import type { Settings, YamlSettings } from './settings.js';
import { settingsSchema, yamlSchema } from './settings.js';
import { parseEventBusSettings, type EventBusSettings } from '../delivery/bus/bus-settings.js';
import { parseSinkSettings, type SinkSettings } from '../delivery/sinks/sink-settings.js';
import { parseClusterSettings, type ClusterSettings } from '../cluster/cluster-settings.js';

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** flag name, environment variable, settings key */
const SIMPLE: [string, string, keyof Settings][] = [
  ['port', 'SVC_PORT', 'port'],
  ['otlp-port', 'SVC_OTLP_PORT', 'otlpPort'],
  ['otlp-http-port', 'SVC_OTLP_HTTP_PORT', 'otlpHttpPort'],
  ['statsd-port', 'SVC_STATSD_PORT', 'statsdPort'],
  ['grpc-port', 'SVC_GRPC_PORT', 'grpcPort'],
  ['dashboard-port', 'SVC_DASHBOARD_PORT', 'dashboardPort'],
  ['bind-address', 'SVC_BIND_ADDRESS', 'bindAddress'],
  ['data-dir', 'SVC_DATA_DIR', 'dataDir'],
  ['api-key', 'SVC_API_KEY', 'apiKey'],
  ['edition', 'SVC_EDITION', 'edition'],
  ['ingest-rps', 'SVC_INGEST_RPS', 'ingestRps'],
  ['ingest-decode-workers', 'SVC_INGEST_DECODE_WORKERS', 'ingestDecodeWorkers'],
  ['ingest-max-waiting-buckets', 'SVC_INGEST_MAX_WAITING_BUCKETS', 'ingestMaxWaitingBuckets'],
  ['tick-seconds', 'SVC_TICK_SECONDS', 'tickSeconds'],
  ['bucket-grace-seconds', 'SVC_BUCKET_GRACE_SECONDS', 'bucketGraceSeconds'],
  ['log-level', 'SVC_LOG_LEVEL', 'logLevel'],
  ['config', 'SVC_CONFIG', 'configFile'],
  ['jit-budget', 'SVC_JIT_BUDGET', 'jitBudget'],
  ['memory-high-water', 'SVC_MEMORY_HIGH_WATER', 'memoryHighWater'],
  ['memory-limit-bytes', 'SVC_MEMORY_LIMIT_BYTES', 'memoryLimitBytes'],
  ['leveldb-max-open-files', 'SVC_LEVELDB_MAX_OPEN_FILES', 'leveldbMaxOpenFiles'],
];

const DEFAULTS = {
  port: 8080,
  otlpPort: 4317,
  otlpHttpPort: 4318,
  statsdPort: 8125,
  grpcPort: 9090,
  dashboardPort: 8081,
  bindAddress: '0.0.0.0',
  dataDir: './data',
  edition: 'community',
  ingestRps: 1000,
  ingestDecodeWorkers: 'auto',
  ingestMaxWaitingBuckets: 'auto',
  tickSeconds: 15,
  logLevel: 'info',
  jitBudget: 'raised',
  memoryHighWater: 0.85,
  leveldbMaxOpenFiles: 74,
};

export function loadSettings(argv: string[], env: NodeJS.ProcessEnv): Settings {
  let flags: Record<string, string | undefined>;
  try {
    const options = Object.fromEntries(SIMPLE.map(([flag]) => [flag, { type: 'string' as const }]));
    flags = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Record<string, string | undefined>;
  } catch (error) {
    throw new SettingsError(`invalid command line: ${(error as Error).message}`);
  }
  const raw: Record<string, unknown> = { ...DEFAULTS };
  const origin: Record<string, string> = {};
  for (const [flag, variable, key] of SIMPLE) {
    const fromFlag = flags[flag];
    const fromEnv = env[variable];
    if (fromFlag !== undefined) {
      raw[key] = fromFlag;
      origin[key] = `--${flag}`;
    } else if (fromEnv !== undefined && fromEnv !== '') {
      raw[key] = fromEnv;
      origin[key] = variable;
    } else {
      origin[key] = variable;
    }
  }
  if (typeof raw['apiKey'] === 'string') {
    const problem = apiKeyProblem(raw['apiKey']);
    if (problem !== undefined) throw new SettingsError(`invalid setting ${origin['apiKey'] ?? 'SVC_API_KEY'}: ${problem}`);
  }
  raw['production'] = env['NODE_ENV'] === 'production';
  for (const [variable, key] of [
    ['SVC_WORKLOAD_WEIGHTS', 'workloadWeights'],
    ['SVC_WORKLOAD_OBJECTIVES', 'workloadObjectives'],
  ] as const) {
    const text = env[variable];
    if (text === undefined || text === '') continue;
    try {
      raw[key] = JSON.parse(text) as unknown;
    } catch (error) {
      throw new SettingsError(`invalid setting ${variable}: not JSON (${(error as Error).message})`);
    }
  }
  const yaml = typeof raw['configFile'] === 'string' ? readYaml(raw['configFile']) : {};
  raw['deployment'] = deploymentFrom(yaml, typeof raw['configFile'] === 'string' ? raw['configFile'] : 'the config file', env);
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) throw new SettingsError(describe(parsed.error, raw, origin));
  return parsed.data;
}

function readYaml(path: string): YamlSettings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingsError(`invalid setting SVC_CONFIG=${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text) ?? {};
  } catch (error) {
    throw new SettingsError(`invalid setting SVC_CONFIG=${path}: not YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const parsed = yamlSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SettingsError(`invalid setting ${issue?.path.join('.') ?? 'config'} in ${path}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function deploymentFrom(yaml: YamlSettings, file: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  let eventbus: EventBusSettings;
  let sinks: SinkSettings;
  let cluster: ClusterSettings;
  try {
    eventbus = parseEventBusSettings(yaml.eventbus);
    sinks = parseSinkSettings(yaml.sinks, env);
    cluster = parseClusterSettings(yaml.cluster, env);
  } catch (error) {
    throw new SettingsError(`invalid setting ${(error as Error).message} in ${file}`);
  }
  return {
    executionMode: yaml.execution_mode ?? 'suggest',
    autoActionConfidence: yaml.confidence_thresholds?.auto_action ?? 0.85,
    namespaceAllowlist: yaml.namespace_allowlist ?? [],
    rateLimitPerHour: yaml.rate_limit_per_hour === undefined || yaml.rate_limit_per_hour === 0 ? 6 : yaml.rate_limit_per_hour,
    kpiRetentionDays: yaml.storage?.retention?.kpis_days ?? 400,
    actionExecutor: yaml.actions?.executor ?? (yaml.actions?.webhook_url !== undefined ? 'webhook' : 'log'),
    actionWebhookUrl: yaml.actions?.webhook_url,
    executorTimeoutSeconds: yaml.actions?.executor_timeout_seconds ?? 600,
    // the default is ACTION_SUSTAIN_MS of actions/creation-gate.ts (config imports no service folder)
    actionSustainSeconds: yaml.actions?.sustain_seconds ?? 120,
    calibrationSteps: yaml.baselines?.observation_window ?? 96,
    // the default is the analysis config's singleSourceEmergencySteps (24 steps of 15 s)
    singleSourceEmergencyMinutes: yaml.alerts?.single_source_emergency_minutes ?? 6,
    simulationBaselineMinutes: yaml.simulation?.baseline_minutes ?? 30,
    eventbus,
    sinks,
    cluster,
  };
}

const YAML_NAMES: Record<string, string> = {
  executionMode: 'execution_mode',
  autoActionConfidence: 'confidence_thresholds.auto_action',
  namespaceAllowlist: 'namespace_allowlist',
  rateLimitPerHour: 'rate_limit_per_hour',
  kpiRetentionDays: 'storage.retention.kpis_days',
  actionExecutor: 'actions.executor',
  actionWebhookUrl: 'actions.webhook_url',
  executorTimeoutSeconds: 'actions.executor_timeout_seconds',
  actionSustainSeconds: 'actions.sustain_seconds',
  calibrationSteps: 'baselines.observation_window',
  singleSourceEmergencyMinutes: 'alerts.single_source_emergency_minutes',
  simulationBaselineMinutes: 'simulation.baseline_minutes',
};

function describe(error: ZodError, raw: Record<string, unknown>, origin: Record<string, string>): string {
  const issue = error.issues[0]!;
  const [head, second] = issue.path.map(String);
  if (head === 'deployment' && second !== undefined) {
    const value = (raw['deployment'] as Record<string, unknown>)[second];
    return `invalid setting ${YAML_NAMES[second] ?? second}=${JSON.stringify(value)} in the config file: ${issue.message}`;
  }
  const name = head === undefined ? 'settings' : (origin[head] ?? head);
  return `invalid setting ${name}=${JSON.stringify(head === undefined ? raw : raw[head])}: ${issue.message}`;
}
