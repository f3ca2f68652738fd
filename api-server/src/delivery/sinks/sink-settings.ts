/**
 * The `sinks` section of the YAML file: where band changes and Tier-1 action changes are sent
 * besides the bus. Every problem is reported with its path (`sinks.webhooks[0].url: …`).
 *
 *   sinks:
 *     timeout_seconds: 10              # per request (default 10)
 *     webhooks:
 *       - name: ops                    # [a-z0-9-], unique
 *         url: https://hooks.example/faultline
 *         secret: s3cret               # HMAC-SHA256 key, or secret_env: FAULTLINE_WEBHOOK_SECRET
 *         events: [rupture.state_changed, action.tier1]   # default both
 *         min_severity: warning        # warning | critical | emergency (default warning)
 *     alertmanager:
 *       url: http://alertmanager:9093  # alerts go to {url}/api/v2/alerts
 *       generator_url: https://faultline.example/   # optional
 *     pagerduty:
 *       routing_key: R0UT1NG…          # or routing_key_env: PAGERDUTY_ROUTING_KEY
 *       url: https://events.pagerduty.com/v2/enqueue   # default
 *
 * Kubernetes is the fourth target: the operator executes actions from the actions list
 * (`actions.executor: external`), not through this section.
 */
import { z } from 'zod';
import { sectionPath } from '../../model/section-path.js';
import { AlertmanagerSink } from './alertmanager-sink.js';
import { PAGERDUTY_EVENTS_URL, PagerDutySink } from './pagerduty-sink.js';
import type { Sink } from './sink.js';
import { WebhookSink } from './webhook-sink.js';

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

const webhookSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9-]{1,63}$/, 'must be 1-63 of a-z 0-9 -'),
    url: httpUrl,
    secret: z.string().min(1, 'must not be empty').optional(),
    secret_env: envName.optional(),
    events: z.array(z.enum(['rupture.state_changed', 'action.tier1'], { message: 'must be rupture.state_changed or action.tier1' })).min(1, 'must list at least one event').optional(),
    min_severity: z.enum(['warning', 'critical', 'emergency'], { message: 'must be warning, critical or emergency' }).optional(),
  })
  .strict();

export const sinksYamlSchema = z
  .object({
    timeout_seconds: z.number().positive('must be > 0').max(300, 'must be at most 300').optional(),
    webhooks: z
      .array(webhookSchema)
      .optional()
      .refine((list) => list === undefined || new Set(list.map((w) => w.name)).size === list.length, { message: 'webhook names must be unique' }),
    alertmanager: z.object({ url: httpUrl, generator_url: httpUrl.optional() }).strict().optional(),
    pagerduty: z
      .object({ routing_key: z.string().min(1, 'must not be empty').optional(), routing_key_env: envName.optional(), url: httpUrl.optional() })
      .strict()
      .optional(),
  })
  .strict();

export interface WebhookSettings {
  name: string;
  url: string;
  secret: string | undefined;
  events: ('rupture.state_changed' | 'action.tier1')[];
  minSeverity: 'warning' | 'critical' | 'emergency';
}

export interface SinkSettings {
  timeoutMs: number;
  webhooks: WebhookSettings[];
  alertmanager: { url: string; generatorUrl: string | undefined } | undefined;
  pagerduty: { routingKey: string; url: string } | undefined;
}

export const NO_SINKS: SinkSettings = { timeoutMs: 10_000, webhooks: [], alertmanager: undefined, pagerduty: undefined };

function fieldPath(path: readonly PropertyKey[]): string {
  return sectionPath('sinks', path);
}

function fromEnv(env: NodeJS.ProcessEnv, name: string, path: string): string {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`${path}: environment variable ${name} is not set`);
  return value;
}

/** Validates the raw YAML value; throws an Error listing every bad field by its path. */
export function parseSinkSettings(raw: unknown, env: NodeJS.ProcessEnv): SinkSettings {
  if (raw === undefined || raw === null) return NO_SINKS;
  const parsed = sinksYamlSchema.safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${fieldPath(i.path)}: ${i.message}`).join('; '));
  const v = parsed.data;
  const webhooks = (v.webhooks ?? []).map((w, i): WebhookSettings => {
    if (w.secret !== undefined && w.secret_env !== undefined) throw new Error(`sinks.webhooks[${i}]: give secret or secret_env, not both`);
    const secret = w.secret_env !== undefined ? fromEnv(env, w.secret_env, `sinks.webhooks[${i}].secret_env`) : w.secret;
    return { name: w.name, url: w.url, secret, events: w.events ?? ['rupture.state_changed', 'action.tier1'], minSeverity: w.min_severity ?? 'warning' };
  });
  let pagerduty: SinkSettings['pagerduty'];
  if (v.pagerduty !== undefined) {
    const p = v.pagerduty;
    if ((p.routing_key === undefined) === (p.routing_key_env === undefined)) throw new Error('sinks.pagerduty: give routing_key or routing_key_env (one of them)');
    const routingKey = p.routing_key_env !== undefined ? fromEnv(env, p.routing_key_env, 'sinks.pagerduty.routing_key_env') : p.routing_key!;
    pagerduty = { routingKey, url: p.url ?? PAGERDUTY_EVENTS_URL };
  }
  return {
    timeoutMs: (v.timeout_seconds ?? 10) * 1000,
    webhooks,
    alertmanager: v.alertmanager === undefined ? undefined : { url: v.alertmanager.url, generatorUrl: v.alertmanager.generator_url },
    pagerduty,
  };
}

export function createSinks(settings: SinkSettings): Sink[] {
  const sinks: Sink[] = settings.webhooks.map((w) => new WebhookSink({ ...w, timeoutMs: settings.timeoutMs }));
  if (settings.alertmanager !== undefined) sinks.push(new AlertmanagerSink({ ...settings.alertmanager, timeoutMs: settings.timeoutMs }));
  if (settings.pagerduty !== undefined) sinks.push(new PagerDutySink({ ...settings.pagerduty, timeoutMs: settings.timeoutMs }));
  return sinks;
}
