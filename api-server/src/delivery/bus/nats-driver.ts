/**
 * The NATS driver of the event bus (`eventbus.driver: nats`), on the maintained split client
 * (`@nats-io/transport-node` + `@nats-io/jetstream`).
 *
 * Subjects: the envelope's `topic` verbatim: `svc.rupture.{namespace/Kind/name}` and
 * `svc.actions.tier1`. `/` is an ordinary character inside a NATS token, so a key without dots is
 * one token; a dot in a Kubernetes name (DNS-1123 subdomains allow them) starts a new token, which
 * is why a subscriber takes every rupture with `svc.rupture.>` (never `svc.rupture.*`). Kubernetes
 * names never hold whitespace, `*` or `>`, and never an empty token (no leading, trailing or double
 * dot), so every subject is valid, and the workload is the subject minus the prefix.
 *
 * Delivery: when a JetStream stream covers a subject, each envelope is published through
 * JetStream with `Nats-Msg-Id` = envelope id and the call resolves only when every PubAck is in:
 * at-least-once, and a retry of the same envelopes (same ids) within the stream's duplicate
 * window is stored once. Without a stream: a core publish of every envelope, then a flush (the
 * server has them), which is at-most-once for subscribers that are away. The stream lookup is
 * cached per subject class and refreshed on every (re)connect.
 */
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import type { Envelope } from '../envelope.js';
import { RUPTURE_SUBJECT_PREFIX, TIER1_SUBJECT } from '../envelope.js';
import type { BusDriver } from './bus-driver.js';

export interface NatsDriverOptions {
  servers: string[];
  token?: string | undefined;
  user?: string | undefined;
  pass?: string | undefined;
  /** connection name shown by the server (default faultline-api-server) */
  name?: string;
  /** PubAck and flush time-out (default 5000 ms) */
  ackTimeoutMs?: number;
  /** connect time-out (default 3000 ms) */
  connectTimeoutMs?: number;
  logger?: { info(fields: Record<string, unknown>, message: string): void; warn(fields: Record<string, unknown>, message: string): void };
}

/** The workload key a rupture subject is about, or undefined for any other subject. */
export function workloadFromSubject(subject: string): string | undefined {
  return subject.startsWith(RUPTURE_SUBJECT_PREFIX) && subject.length > RUPTURE_SUBJECT_PREFIX.length ? subject.slice(RUPTURE_SUBJECT_PREFIX.length) : undefined;
}

/** True for a subject NATS accepts for publishing: non-empty tokens, no whitespace, no wildcards. */
export function isPublishableSubject(subject: string): boolean {
  if (subject.length === 0 || /\s/.test(subject)) return false;
  return subject.split('.').every((t) => t.length > 0 && t !== '*' && t !== '>');
}

type SubjectClass = 'rupture' | 'tier1';

export class NatsBusDriver implements BusDriver {
  readonly name = 'nats';
  private nc: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private readonly streamFor = new Map<SubjectClass, string | null>();
  private ok = false;

  constructor(private readonly options: NatsDriverOptions) {}

  async connect(): Promise<void> {
    await this.close();
    const nc = await connect({
      servers: this.options.servers,
      name: this.options.name ?? 'faultline-api-server',
      timeout: this.options.connectTimeoutMs ?? 3_000,
      // the delivery worker owns retries: the client must not hide an outage behind its own buffer
      reconnect: false,
      ...(this.options.token !== undefined ? { token: this.options.token } : {}),
      ...(this.options.user !== undefined ? { user: this.options.user, pass: this.options.pass ?? '' } : {}),
    });
    this.nc = nc;
    this.js = jetstream(nc, { timeout: this.ackTimeoutMs() });
    this.streamFor.clear();
    await this.lookUpStreams(nc);
    this.ok = true;
    void nc.closed().then(() => {
      if (this.nc === nc) this.ok = false;
    });
    this.options.logger?.info({ servers: this.options.servers, jetstream: Object.fromEntries(this.streamFor) }, 'NATS connected');
  }

  async publish(envelopes: readonly Envelope[]): Promise<void> {
    const nc = this.nc;
    const js = this.js;
    if (nc === undefined || js === undefined || nc.isClosed()) {
      this.ok = false;
      throw new Error('NATS is not connected');
    }
    try {
      const acks: Promise<unknown>[] = [];
      let core = false;
      for (const e of envelopes) {
        const h = headers();
        h.set('Nats-Msg-Id', e.id);
        h.set('Faultline-Schema', e.schema);
        h.set('Faultline-Type', e.type);
        const data = JSON.stringify(e);
        if (this.streamFor.get(classOf(e.topic)) != null) {
          acks.push(js.publish(e.topic, data, { msgID: e.id, headers: h, timeout: this.ackTimeoutMs() }));
        } else {
          nc.publish(e.topic, data, { headers: h });
          core = true;
        }
      }
      await Promise.all(acks);
      if (core) await withTimeout(nc.flush(), this.ackTimeoutMs(), 'NATS flush');
      this.ok = true;
    } catch (error) {
      this.ok = false;
      throw error;
    }
  }

  connected(): boolean {
    return this.ok && this.nc !== undefined && !this.nc.isClosed();
  }

  async close(): Promise<void> {
    const nc = this.nc;
    this.nc = undefined;
    this.js = undefined;
    this.ok = false;
    if (nc === undefined || nc.isClosed()) return;
    await withTimeout(nc.drain(), 2_000, 'NATS drain').catch(() => nc.close().catch(() => undefined));
  }

  private ackTimeoutMs(): number {
    return this.options.ackTimeoutMs ?? 5_000;
  }

  private async lookUpStreams(nc: NatsConnection): Promise<void> {
    let jsm;
    try {
      jsm = await jetstreamManager(nc, { timeout: this.ackTimeoutMs() });
    } catch {
      // JetStream not enabled on this server: core publish for everything
      this.streamFor.set('rupture', null);
      this.streamFor.set('tier1', null);
      return;
    }
    const probe: [SubjectClass, string][] = [
      ['rupture', `${RUPTURE_SUBJECT_PREFIX}probe/Deployment/probe`],
      ['tier1', TIER1_SUBJECT],
    ];
    for (const [cls, subject] of probe) {
      try {
        this.streamFor.set(cls, await jsm.streams.find(subject));
      } catch {
        this.streamFor.set(cls, null);
      }
    }
  }
}

function classOf(topic: string): SubjectClass {
  return topic === TIER1_SUBJECT ? 'tier1' : 'rupture';
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
