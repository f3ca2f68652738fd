/**
 * The `eventbus` section of the YAML file (interface: `eventbus.driver` `nats` or `kafka`; kafka
 * takes `brokers` and `topic`). Field names are snake_case like the rest of the file; every
 * problem is reported with its path (`eventbus.brokers[0]: …`).
 *
 *   eventbus:
 *     driver: kafka                 # nats | kafka | none (default none: no bus)
 *     brokers: [kafka-0:9092]       # kafka: host:port list
 *     topic: svc.events             # kafka: the single topic (default svc.events)
 *     transactional_id: faultline   # kafka: stable per installation (default faultline-api-server)
 *     servers: [nats://nats:4222]   # nats: server URLs (also `url: nats://…`)
 *     token: …                      # nats: optional; or user + pass
 *     backlog: 4096                 # envelopes kept for a channel that cannot deliver
 */
import { z } from 'zod';
import { sectionPath } from '../../model/section-path.js';

const hostPort = z.string().regex(/^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/, 'must be host:port');
const natsUrl = z.string().regex(/^(nats|tls|ws|wss):\/\/[^\s]+$|^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/, 'must be nats://host:port or host:port');

const common = {
  backlog: z.number().int('must be an integer').min(16, 'must be at least 16').max(1_000_000, 'must be at most 1000000').default(4096),
};

export const eventBusYamlSchema = z.discriminatedUnion(
  'driver',
  [
    z.object({ driver: z.literal('none'), ...common }).strict(),
    z
      .object({
        driver: z.literal('nats'),
        servers: z.array(natsUrl).min(1, 'must list at least one server').optional(),
        url: natsUrl.optional(),
        token: z.string().min(1).optional(),
        user: z.string().min(1).optional(),
        pass: z.string().optional(),
        ...common,
      })
      .strict()
      .refine((v) => v.servers !== undefined || v.url !== undefined, { message: 'nats needs servers (or url)', path: ['servers'] }),
    z
      .object({
        driver: z.literal('kafka'),
        brokers: z.array(hostPort).min(1, 'must list at least one broker'),
        topic: z
          .string()
          .regex(/^[A-Za-z0-9._-]{1,249}$/, 'must be a Kafka topic name: 1-249 of A-Z a-z 0-9 . _ -')
          .default('svc.events'),
        transactional_id: z.string().min(1).default('faultline-api-server'),
        ...common,
      })
      .strict(),
  ],
  { message: 'must be nats, kafka or none' },
);

export type EventBusYaml = z.input<typeof eventBusYamlSchema>;

export type EventBusSettings =
  | { driver: 'none'; backlog: number }
  | { driver: 'nats'; servers: string[]; token?: string; user?: string; pass?: string; backlog: number }
  | { driver: 'kafka'; brokers: string[]; topic: string; transactionalId: string; backlog: number };

export const DEFAULT_EVENT_BUS: EventBusSettings = { driver: 'none', backlog: 4096 };

/** Validates the raw YAML value; throws an Error whose message names the first bad field. */
export function parseEventBusSettings(raw: unknown): EventBusSettings {
  if (raw === undefined || raw === null) return DEFAULT_EVENT_BUS;
  const parsed = eventBusYamlSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${sectionPath('eventbus', issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
  }
  const v = parsed.data;
  switch (v.driver) {
    case 'none':
      return { driver: 'none', backlog: v.backlog };
    case 'nats': {
      const out: EventBusSettings = { driver: 'nats', servers: v.servers ?? [v.url ?? ''], backlog: v.backlog };
      if (v.token !== undefined) out.token = v.token;
      if (v.user !== undefined) out.user = v.user;
      if (v.pass !== undefined) out.pass = v.pass;
      return out;
    }
    case 'kafka':
      return { driver: 'kafka', brokers: v.brokers, topic: v.topic, transactionalId: v.transactional_id, backlog: v.backlog };
  }
}
