/**
 * Cluster mode's decisions on actions (approve, reject, rollback, the executor's result): any
 * replica takes them over HTTP, but only the replica owning the action's workload changes the
 * action, so there is one writer per action and per partition.
 *
 * The replica that received the request writes `cmd|<request>` to the control topic (one
 * partition, read by every replica in one order) and waits for `res|<request>`. Every replica
 * reads the command; the one whose action engine drives the workload (owner of its partition,
 * restored) applies it with its engine (which writes the action record to the state topic before
 * it answers) and writes the answer: the action as applied, or the engine's refusal (404, 409,
 * 402). The HTTP answer is that answer. No answer within `timeoutMs` (the partition is moving, or
 * its owner died and the group has not reassigned it yet) is answered 503 and changes nothing
 * that the caller can see; retrying is safe, because the engine's transitions are idempotent
 * (approving an approved action, the same result twice, a second rollback request are no-ops).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ActionEngine } from '../actions/action-engine.js';
import type { ActionDecisions, ExecutionReport } from '../actions/action-engine-types.js';
import { ActionError, ActionRoutingError } from '../actions/action-errors.js';
import type { Action } from '../actions/action.js';
import { actionSchema } from './action-records.js';
import { ControlTopicError } from '../control/control-write-refused.js';
import type { CommandRecords } from './replicated-control.js';

const finite = z.number().refine(Number.isFinite, 'must be finite');

const reportSchema = z.object({
  outcome: z.enum(['executed', 'failed', 'rolled_back', 'rollback_failed']),
  previousReplicas: z.number().int().nonnegative().optional(),
  replicas: z.number().int().nonnegative().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  dryRun: z.boolean().optional(),
  executor: z.string().min(1),
});

const commandSchema = z.object({
  verb: z.enum(['approve', 'reject', 'rollback', 'result']),
  id: z.string().min(1),
  nowMs: finite,
  from: z.string(),
  report: reportSchema.optional(),
});

const answerSchema = z.union([
  z.object({ ok: z.literal(true), by: z.string(), action: actionSchema }),
  z.object({ ok: z.literal(false), by: z.string(), kind: z.enum(['not_found', 'conflict', 'edition', 'unavailable']), message: z.string() }),
]);

type Command = z.infer<typeof commandSchema>;
type Answer = z.infer<typeof answerSchema>;

export interface ActionCommandsOptions {
  replicaId: string;
  /** how long a request waits for the owner's answer */
  timeoutMs: number;
  log: {
    info(fields: Record<string, unknown>, message: string): void;
    warn(fields: Record<string, unknown>, message: string): void;
  };
}

/** the control topic's writer */
export interface ControlSender {
  send(key: string, value: string | undefined): Promise<void>;
}

function parse<T>(schema: z.ZodType<T>, value: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(value) as unknown);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export class ActionCommands implements ActionDecisions, CommandRecords {
  private readonly waiting = new Map<string, (answer: Answer) => void>();
  /** decisions applied here, one after another */
  private queue: Promise<void> = Promise.resolve();
  /** decisions this replica applied, for /health and the tests */
  applied = 0;

  constructor(
    private readonly engine: ActionEngine,
    private readonly control: ControlSender,
    private readonly options: ActionCommandsOptions,
  ) {}

  approve(id: string, nowMs: number): Promise<Action> {
    this.engine.checkEdition('approve');
    return this.request({ verb: 'approve', id, nowMs });
  }

  reject(id: string, nowMs: number): Promise<Action> {
    return this.request({ verb: 'reject', id, nowMs });
  }

  rollback(id: string, nowMs: number): Promise<Action> {
    this.engine.checkEdition('rollback');
    return this.request({ verb: 'rollback', id, nowMs });
  }

  reportResult(id: string, report: ExecutionReport, nowMs: number): Promise<Action> {
    return this.request({ verb: 'result', id, nowMs, report });
  }

  /** a live `cmd|` or `res|` record of the control topic */
  record(key: string, value: string): void {
    const request = key.slice(4);
    if (key.startsWith('res|')) {
      const answer = parse(answerSchema, value);
      if (answer === undefined) this.options.log.warn({ key }, 'cluster: unreadable action answer skipped');
      else this.waiting.get(request)?.(answer);
      return;
    }
    const command = parse(commandSchema, value);
    if (command === undefined) {
      this.options.log.warn({ key }, 'cluster: unreadable action command skipped');
      return;
    }
    if (!this.isMine(command.id)) return;
    this.queue = this.queue
      .then(() => this.decide(request, command))
      .catch((error: unknown) => this.options.log.warn({ err: error, request, action: command.id }, 'cluster: answering an action command failed; the caller times out'));
  }

  private isMine(id: string): boolean {
    const action = this.engine.get(id);
    return action !== undefined && this.engine.drivesWorkload(action.workload);
  }

  private async request(command: Omit<Command, 'from'>): Promise<Action> {
    const known = this.engine.get(command.id);
    if (known === undefined) throw new ActionError('not_found', `action ${command.id} not found`);
    const request = `${this.options.replicaId}.${randomBytes(8).toString('hex')}`;
    const answered = new Promise<Answer>((resolve) => this.waiting.set(request, resolve));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ActionRoutingError(
              `no replica applied ${command.verb} of ${command.id} within ${this.options.timeoutMs} ms: the owner of ${known.workload} may be moving to another replica; nothing was changed that this answer reports, retry shortly`,
            ),
          ),
        this.options.timeoutMs,
      );
    });
    let answer: Answer;
    try {
      await this.control.send(`cmd|${request}`, JSON.stringify({ ...command, from: this.options.replicaId }));
      answer = await Promise.race([answered, timedOut]);
    } catch (error) {
      if (error instanceof ControlTopicError) throw new ActionRoutingError(error.message);
      throw error;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(request);
    }
    // the answer is read: delete it from the compacted topic
    this.control.send(`res|${request}`, undefined).catch(() => undefined);
    if (!answer.ok) {
      if (answer.kind === 'unavailable') throw new ActionRoutingError(answer.message);
      throw new ActionError(answer.kind, answer.message);
    }
    // read-your-write on this replica (a no-op where the engine drives the workload)
    if (answer.action.state === 'rejected') this.engine.unmirror(answer.action.id);
    else this.engine.mirror(answer.action);
    return answer.action;
  }

  private async decide(request: string, command: Command): Promise<void> {
    if (!this.isMine(command.id)) return;
    let answer: Answer;
    try {
      const action = await this.apply(command);
      answer = { ok: true, by: this.options.replicaId, action };
      this.applied += 1;
      this.options.log.info({ request, action: command.id, verb: command.verb, from: command.from, state: action.state }, 'cluster: action command applied');
    } catch (error) {
      if (error instanceof ActionError) answer = { ok: false, by: this.options.replicaId, kind: error.kind, message: error.message };
      else answer = { ok: false, by: this.options.replicaId, kind: 'unavailable', message: `the owner could not store the change: ${(error as Error).message}` };
    }
    await this.control.send(`res|${request}`, JSON.stringify(answer));
    await this.control.send(`cmd|${request}`, undefined);
  }

  private apply(command: Command): Promise<Action> {
    switch (command.verb) {
      case 'approve':
        return this.engine.approve(command.id, command.nowMs);
      case 'reject':
        return this.engine.reject(command.id, command.nowMs);
      case 'rollback':
        return this.engine.rollback(command.id, command.nowMs);
      case 'result': {
        const r = command.report;
        if (r === undefined) return Promise.reject(new ActionError('conflict', `result command for ${command.id} carries no report`));
        const report: ExecutionReport = {
          outcome: r.outcome,
          executor: r.executor,
          ...(r.previousReplicas === undefined ? {} : { previousReplicas: r.previousReplicas }),
          ...(r.replicas === undefined ? {} : { replicas: r.replicas }),
          ...(r.reason === undefined ? {} : { reason: r.reason }),
          ...(r.message === undefined ? {} : { message: r.message }),
          ...(r.dryRun === undefined ? {} : { dryRun: r.dryRun }),
        };
        return this.engine.reportResult(command.id, report, command.nowMs);
      }
    }
  }
}
