/** Operator settings from the environment, validated with zod (operator.md §11, §14). */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';

const num = (def: number) => z.coerce.number().finite().positive().default(def);

const envSchema = z.object({
  FAULTLINE_ENGINE_URL: z.string().url().default('http://127.0.0.1:8080/api/v2'),
  SVC_API_KEY: z.string().optional(),
  POD_NAMESPACE: z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a DNS-1123 label').default('default'),
  POD_NAME: z.string().optional(),
  OPERATOR_OPS_PORT: z.coerce.number().int().min(0).max(65535).default(8082),
  OPERATOR_WEIGHTS_SOURCE: z.enum(['crd', 'api']).default('crd'),
  OPERATOR_ACTION_POLL_SECONDS: num(5),
  OPERATOR_MAX_REPLICAS: num(50),
  OPERATOR_MAX_STEP: z.coerce.number().int().positive().optional(),
  OPERATOR_MAX_ACTION_AGE_MINUTES: num(30),
  OPERATOR_EXECUTION_NAMESPACES: z.string().optional(),
  OPERATOR_WATCH_NAMESPACES: z.string().optional(),
  OPERATOR_DRY_RUN: z.enum(['true', 'false']).default('false'),
  OPERATOR_RESYNC_MINUTES: num(10),
  OPERATOR_LEASE_DURATION_SECONDS: num(15),
  OPERATOR_RENEW_DEADLINE_MS: num(10_000),
  OPERATOR_RETRY_PERIOD_MS: num(2_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
});

export interface OperatorSettings {
  engineUrl: string;
  apiKey: string | undefined;
  namespace: string;
  identity: string;
  opsPort: number;
  weightsSource: 'crd' | 'api';
  actionPollSeconds: number;
  maxReplicas: number;
  maxStep: number | undefined;
  maxActionAgeMinutes: number;
  executionNamespaces: string[] | undefined;
  /** undefined: cluster-wide */
  watchNamespaces: string[] | undefined;
  dryRun: boolean;
  resyncMinutes: number;
  leaseDurationSeconds: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  logLevel: string;
}

export function loadOperatorSettings(env: NodeJS.ProcessEnv): OperatorSettings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  const e = parsed.data;
  return {
    engineUrl: e.FAULTLINE_ENGINE_URL.replace(/\/$/, ''),
    apiKey: e.SVC_API_KEY,
    namespace: e.POD_NAMESPACE,
    identity: `${e.POD_NAME ?? hostname()}_${randomBytes(4).toString('hex')}`,
    opsPort: e.OPERATOR_OPS_PORT,
    weightsSource: e.OPERATOR_WEIGHTS_SOURCE,
    actionPollSeconds: e.OPERATOR_ACTION_POLL_SECONDS,
    maxReplicas: e.OPERATOR_MAX_REPLICAS,
    maxStep: e.OPERATOR_MAX_STEP,
    maxActionAgeMinutes: e.OPERATOR_MAX_ACTION_AGE_MINUTES,
    executionNamespaces: e.OPERATOR_EXECUTION_NAMESPACES?.split(',').map((s) => s.trim()).filter((s) => s !== ''),
    watchNamespaces: e.OPERATOR_WATCH_NAMESPACES?.split(',').map((s) => s.trim()).filter((s) => s !== ''),
    dryRun: e.OPERATOR_DRY_RUN === 'true',
    resyncMinutes: e.OPERATOR_RESYNC_MINUTES,
    leaseDurationSeconds: e.OPERATOR_LEASE_DURATION_SECONDS,
    renewDeadlineMs: e.OPERATOR_RENEW_DEADLINE_MS,
    retryPeriodMs: e.OPERATOR_RETRY_PERIOD_MS,
    logLevel: e.LOG_LEVEL,
  };
}
