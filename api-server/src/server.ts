/**
 * Builds and starts the standalone service: LevelDB, analysis core, control plane, action engine,
 * analyzer loop, the REST, OTLP and dashboard listeners. `startServer` is what `main.ts` runs and
 * what the integration tests start in-process on ephemeral ports.
 */
import { getHeapStatistics } from 'node:v8';
import { maxWaitingBuckets } from './config/waiting-buckets.js';
import { availableParallelism } from 'node:os';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase } from './storage/open-database.js';
import type Koa from 'koa';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { ActionEngine } from './actions/action-engine.js';
import type { ActionExecutor } from './actions/executor.js';
import { LoggingExecutor } from './actions/executors/logging-executor.js';
import { WebhookExecutor } from './actions/executors/webhook-executor.js';
import { AnalysisCoreImpl } from './analysis/analysis-core.js';
import type { WeightOverride } from './analysis/contract.js';
import { bucketGraceMsOf, type Settings } from './config/settings.js';
import type { ActionPayload } from './delivery/envelope.js';
import { ControlPlane } from './control/control-plane.js';
import { normaliseOverrides, weightOverridesBody } from './control/weight-overrides.js';
import { failureObjectivesBody, objectivesFrom } from './control/failure-objectives.js';
import type { FailureObjective } from './model/failure-objective.js';
import { jsonPath } from './model/json-path.js';
import { AnalyzerLoop, TICK_SLICES } from './engine/analyzer-loop.js';
import { HeapTrim } from './engine/heap-trim.js';
import { RetentionSweeper } from './engine/retention-sweeper.js';
import { historyRetentionMs } from './model/retention.js';
import { EventHub } from './events/event-hub.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { EventOutbox } from './delivery/outbox.js';
import { EventPublisher } from './events/event-publisher.js';
import { createOutboundChannels } from './delivery/outbound-channels.js';
import { actionJson } from './http/render/action-json.js';
import { BearerKey } from './http/bearer-auth.js';
import { createOtlpApp } from './http/otlp-app.js';
import { createOtlpHttpApp } from './http/otlp-http/otlp-http-app.js';
import { createRestApp } from './http/rest-app.js';
import { defaultDashboardDir, serveDashboard } from './dashboard/static-files.js';
import type { ServiceContext } from './http/service-context.js';
import { BulkDecoder } from './ingest/bulk/bulk-decoder.js';
import { LokiPushDecoder } from './ingest/loki/loki-push-decoder.js';
import { RemoteWriteDecoder } from './ingest/remote-write/remote-write-decoder.js';
import { RemoteWriteDecodePool } from './ingest/remote-write/remote-write-decode-pool.js';
import { decodeWorkerCount } from './config/decode-workers.js';
import { IngestPipeline } from './pipeline/ingest-pipeline.js';
import type { IngestSink } from './pipeline/ingest-sink.js';
import { standaloneIngest } from './pipeline/standalone-ingest.js';
import { startClusterNode, type ClusterNode } from './cluster/cluster-node.js';
import { ClusterActionRepository } from './cluster/action-records.js';
import { localReads } from './reads/workload-reads.js';
import { TokenBucket } from './pipeline/token-bucket.js';
import { SimulationInjector } from './simulation/injector.js';
import { StatsdListener } from './ingest/statsd/statsd-listener.js';
import { HeapAfterGc } from './observability/heap-after-gc.js';
import { GrpcIngestServer } from './ingest/grpc/grpc-ingest-server.js';
import { LevelActionStore } from './storage/action-store.js';
import { AnalysisStore } from './storage/analysis-store.js';
import { SelfMetrics } from './observability/self-metrics.js';
import { MemoryGuard } from './observability/memory-guard.js';
import { resolveMemoryLimit } from './observability/memory-limit.js';
import { performance } from 'node:perf_hooks';
import { SettingsError } from './config/load-settings.js';
import { VERSION } from './version.js';
import { newHexId } from './random-ids.js';

export interface RunningServer {
  ports: ServiceContext['ports'];
  context: ServiceContext;
  /** graceful stop: stop accepting, last tick, flush, close the database */
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  now?: () => number;
}

export async function startServer(settings: Settings, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: settings.logLevel, base: { service: 'faultline-api-server' } });
  const now = options.now ?? Date.now;
  const startedAtMs = Date.now();
  let ready = false;
  const closers: (() => void)[] = [];

  const bootstrapWeights = parseBootstrapWeights(settings.workloadWeights);
  const bootstrapObjectives = parseBootstrapObjectives(settings.workloadObjectives);
  const db = await openDatabase(settings.dataDir, { maxOpenFiles: settings.leveldbMaxOpenFiles });

  const metrics = new SelfMetrics(VERSION);
  const core = new AnalysisCoreImpl({ newHexId, config: { calibrationSteps: settings.deployment.calibrationSteps, bucketGraceMs: bucketGraceMsOf(settings), singleSourceEmergencySteps: Math.ceil((settings.deployment.singleSourceEmergencyMinutes * 60) / 15) } });
  // cluster mode: rpt_ingest_samples_total counts what Kafka acknowledged to senders (the
  // telemetry producer), not what this replica's analysis reads back from the topic
  const heapLimitBytes = getHeapStatistics().heap_size_limit;
  const backlogBound = maxWaitingBuckets(settings.ingestMaxWaitingBuckets, heapLimitBytes);
  logger.info({ max_waiting_buckets: backlogBound, setting: settings.ingestMaxWaitingBuckets, heap_limit_bytes: heapLimitBytes }, 'analysis backlog bound: ingest answers 429 analysis_backlog at this many waiting workload-buckets');
  const pipeline = new IngestPipeline(core, { accepted: (s, n) => (d.cluster.enabled ? undefined : metrics.accepted(s, n)), dropped: (r, n) => metrics.droppedRecords(r, n) }, now, undefined, backlogBound);
  const store = new AnalysisStore(db);
  const hub = new EventHub();
  const outbox = new EventOutbox(db, settings.deployment.eventbus.backlog, {
    overflow: (channel, count) => {
      metrics.outboundDroppedCount(channel, 'overflow', count);
      logger.error({ channel, dropped: count, bound: settings.deployment.eventbus.backlog }, 'outbound backlog over its bound: the oldest envelopes of this channel are dropped');
    },
  });
  await outbox.load();
  const control = new ControlPlane(db, (prefix) => `${prefix}${newHexId()}`, {
    suppressionsChanged: (list) =>
      core.setSuppressions(list.map((s) => ({ id: s.id, workload: s.workload, startMs: s.startMs, endMs: s.endMs, signals: s.signals ?? undefined }))),
    contextChanged: (list) => core.setContextEvents(list.map((c) => ({ id: c.id, workload: c.workload, event: c.event, description: c.description, timeMs: c.timeMs }))),
    weightsChanged: (list) => core.setWeights([...list]),
    objectivesChanged: (list) => core.setObjectives(list),
  });
  const d = settings.deployment;
  // cluster mode: actions live in the state topic, on their workload's partition
  const clusterActions = d.cluster.enabled ? new ClusterActionRepository(d.cluster.stateTopic) : undefined;
  const executor: ActionExecutor =
    d.actionExecutor === 'webhook' && d.actionWebhookUrl !== undefined
      ? new WebhookExecutor({ url: d.actionWebhookUrl, timeoutMs: 10_000 })
      : new LoggingExecutor({ info: (fields, message) => logger.info(fields, message) });
  const actions = new ActionEngine(
    {
      edition: settings.edition,
      executionMode: d.executionMode,
      autoActionConfidence: d.autoActionConfidence,
      namespaceAllowlist: d.namespaceAllowlist,
      rateLimitPerHour: d.rateLimitPerHour,
      cooldownMs: 300_000,
      executor: d.actionExecutor === 'external' ? 'external' : 'internal',
      pendingLimit: 256,
      terminalLimit: 256,
      creationCooldownMs: 300_000,
      executorTimeoutMs: d.executorTimeoutSeconds * 1000,
      sustainMs: d.actionSustainSeconds * 1000,
    },
    clusterActions ?? new LevelActionStore(db),
    executor,
    control,
    () => `act_${newHexId()}`,
    {
      outcome: (action, outcome, detail) => {
        metrics.action(action.type, action.tier, outcome);
        logger.info({ action: action.id, workload: action.workload, type: action.type, tier: action.tier, outcome, detail }, `action ${outcome}`);
        if (action.tier === 1) {
          publisher.tier1Action(actionJson(action) as ActionPayload, action.triggerSignal).catch((error: unknown) => logger.error({ err: error, action: action.id }, 'storing a Tier-1 action event failed'));
        }
      },
    },
  );
  const channels = createOutboundChannels(settings.deployment, {
    logger,
    rejected: (sink, envelope, error) => logger.warn({ sink, event: envelope.id, status: error.status, error: error.message }, 'sink refused an event; it is dropped'),
  });
  const workers = channels.map(
    (channel) =>
      new DeliveryWorker(channel, outbox, {
        delivered: (name, n) => metrics.outboundDeliveredCount(name, n),
        failed: (name) => metrics.outboundFailure(name),
        dropped: (name, reason, n) => metrics.outboundDroppedCount(name, reason === 'overflow' ? 'overflow' : 'rejected', n),
        log: (level, fields, message) => logger[level](fields, message),
      }),
  );
  for (const channel of channels) await outbox.register(channel.name);
  await outbox.forget(new Set(channels.map((c) => c.name)));
  const publisher = new EventPublisher(outbox, hub, {
    suppressed: (workload, signal, nowMs) => control.isSuppressed(workload, signal, nowMs),
    narrative: (ruptureId) => core.explain(ruptureId)?.narrative ?? null,
    now,
  }, workers);
  metrics.outboundBacklogs(() => workers.map((w) => ({ channel: w.name, backlog: outbox.backlog(w.name) })));
  // the actions kept from before (standalone; in cluster mode the engine's records come from the state topic)
  await actions.load();
  // cluster mode: ingest goes to Kafka, this replica analyses the partitions it is assigned
  let cluster: ClusterNode | undefined;
  if (d.cluster.enabled && clusterActions !== undefined) {
    cluster = await startClusterNode(
      d.cluster,
      core,
      pipeline,
      {
        bucketMs: 15_000,
        log: { info: (f, m) => logger.info(f, m), warn: (f, m) => logger.warn(f, m), error: (f, m) => logger.error(f, m) },
        dropped: (reason, n) => metrics.droppedRecords(reason, n),
        accepted: (source, n) => metrics.accepted(source, n),
        replayed: (source, n) => metrics.clusterReplayed(source, n),
        store,
        historyRetentionMs: historyRetentionMs(d.kpiRetentionDays),
      },
      { engine: actions, repository: clusterActions },
    );
  }
  // the control plane as kept (LevelDB), then, in cluster mode, the control topic applied over it:
  // the writes, the decisions on actions and the emergency stop the routes get are the standalone
  // or the replicated ones, chosen here before the context exists
  await control.load(bootstrapWeights, bootstrapObjectives);
  await control.prune(now());
  const replicated = cluster === undefined ? undefined : await cluster.attachControl(control, actions);
  const heapAfterGc = new HeapAfterGc();
  heapAfterGc.start();
  const memoryGuard = new MemoryGuard({
    limit: resolveMemoryLimit(settings.memoryLimitBytes),
    highWater: settings.memoryHighWater,
    rss: () => process.memoryUsage.rss(),
    heap: () => heapAfterGc.reading(),
    clock: () => performance.now(),
  });
  const guardStatus = memoryGuard.status();
  logger.info(
    { memory_limit_bytes: guardStatus.limit_bytes, limit_source: guardStatus.limit_source, high_water_bytes: guardStatus.high_water_bytes, heap_limit_bytes: guardStatus.heap_limit_bytes, heap_high_water_bytes: guardStatus.heap_high_water_bytes },
    guardStatus.limit_bytes === null ? 'no memory limit known: the high-water guard reads V8 heap only' : 'memory high-water guard armed (resident memory and V8 heap)',
  );
  // standalone only: a cluster replica's ingest goes to Kafka, and the workload's owner may be another replica
  const ingest: IngestSink = cluster?.ingest ?? standaloneIngest({ pipeline, known: (workload) => core.hasWorkload(workload), guard: memoryGuard, metrics, logger });
  const injector = new SimulationInjector(
    {
      enqueue: (batch) => {
        void ingest.accept(batch).then((outcome) => {
          if (outcome !== 'accepted') logger.warn({ outcome, records: batch.metrics.length }, 'simulation samples were not accepted');
        });
        return true;
      },
      now, newId: () => `sim_${newHexId()}`, noise: Math.random },
    { intervalMs: 5_000, baselineMinutes: d.simulationBaselineMinutes },
  );
  const auth = new BearerKey(settings.apiKey, settings.production);
  if (!auth.enabled) {
    if (settings.production) logger.error('no API key configured and NODE_ENV=production: every API call answers 503; set SVC_API_KEY or --api-key');
    else logger.warn('no API key configured: authentication is OFF (development mode); set SVC_API_KEY or --api-key');
  }

  const svc: ServiceContext = {
    settings,
    version: VERSION,
    startedAtMs,
    logger,
    auth,
    ready: () => ready,
    now,
    newHexId,
    core,
    reads: cluster?.reads ?? localReads(core, store),
    pipeline,
    ingest,
    bucket: new TokenBucket(settings.ingestRps),
    store,
    hub,
    publisher,
    actions,
    actionDecisions: replicated?.decisions ?? actions,
    control,
    controlWrites: replicated?.control ?? control,
    emergencyStop: replicated === undefined ? (on, nowMs) => actions.setEmergencyStop(on, nowMs) : (on, nowMs) => replicated.control.setEmergencyStop(on, nowMs),
    injector,
    metrics,
    memoryGuard,
    onClose: (fn) => closers.push(fn),
    ...(cluster === undefined ? {} : { clusterStatus: () => (cluster as ClusterNode).status() }),
    ports: { rest: 0, otlp: 0, otlpHttp: 0, dashboard: 0, statsd: 0, grpc: 0 },
  };

  // node's gc (--expose-gc, which npm start, the image and the manifests pass): a full collection
  // once catch-up ticks are over, and after a tick whose heap has doubled since V8's last major collection
  const heapTrim = new HeapTrim({ collect: globalThis.gc, heapUsed: () => getHeapStatistics().used_heap_size, clock: () => performance.now(), liveHeap: () => heapAfterGc.reading().usedAfterGcBytes });
  if (!heapTrim.enabled) logger.warn('node runs without --expose-gc: V8\'s heap is not collected between ticks, and may hold GBs of garbage after a backfill (docs/memory.md)');
  const loop = new AnalyzerLoop(core, pipeline, store, publisher, actions, metrics, logger, {
    tickMs: settings.tickSeconds * 1000,
    stateEveryTicks: Math.max(1, Math.round(300 / settings.tickSeconds)),
    now,
    // standalone: the tick runs in slices between requests; cluster mode keeps it whole, as the
    // partition owner may hand a workload over between two ticks but not in the middle of one
    ...(d.cluster.enabled ? {} : { slices: TICK_SLICES }),
    heapTrim,
  });

  const servers: Server[] = [];
  const listen = async (app: Koa, port: number): Promise<number> => {
    const server = createServer({ headersTimeout: 5_000, requestTimeout: 60_000, connectionsCheckingInterval: 1_000 }, app.callback());
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, settings.bindAddress, () => resolve());
    });
    servers.push(server);
    return (server.address() as AddressInfo).port;
  };
  const cores = availableParallelism();
  const decodeWorkers = decodeWorkerCount(settings.ingestDecodeWorkers, cores);
  logger.info({ decode_workers: decodeWorkers, setting: settings.ingestDecodeWorkers, cores }, decodeWorkers === 0 ? 'remote-write bodies are decoded on the event loop' : 'remote-write bodies are decoded in worker threads');
  const decodePool = decodeWorkers > 0 ? new RemoteWriteDecodePool(decodeWorkers) : undefined;
  if (decodePool !== undefined) closers.push(() => void decodePool.close());
  const remoteWrite = new RemoteWriteDecoder(decodePool);
  svc.ports.rest = await listen(createRestApp(svc, { remoteWrite }), settings.port);
  const loki = new LokiPushDecoder();
  const bulk = new BulkDecoder();
  svc.ports.otlp = await listen(
    createOtlpApp(svc, {
      extraRoutes: [
        ['/api/v2/write', remoteWrite],
        ['/loki/api/v1/push', loki],
        ['/_bulk', bulk],
        ['/:index/_bulk', bulk],
      ],
    }),
    settings.otlpPort,
  );
  // the standard OTLP/HTTP listener (protobuf and JSON, gzip); port 0 in the settings disables it
  if (settings.otlpHttpPort !== 0) svc.ports.otlpHttp = await listen(createOtlpHttpApp(svc), settings.otlpHttpPort);
  svc.ports.dashboard = await listen(createRestApp(svc, { remoteWrite, before: [serveDashboard(defaultDashboardDir())] }), settings.dashboardPort);
  const statsd = new StatsdListener({ accept: (b) => ingest.accept(b), dropped: (r, n) => metrics.droppedRecords(r, n), now });
  svc.ports.statsd = await statsd.start(settings.statsdPort, settings.bindAddress);
  const grpcServer = new GrpcIngestServer({
    auth,
    tryTake: () => svc.bucket.tryTake(),
    accept: (b) => ingest.accept(b),
    now,
    dropped: (r, n) => metrics.droppedRecords(r, n),
  });
  svc.ports.grpc = await grpcServer.start(settings.grpcPort, settings.bindAddress);
  logger.info({ ports: svc.ports, bind: settings.bindAddress, data_dir: settings.dataDir, edition: settings.edition }, 'listening');

  if (cluster !== undefined) {
    const node = cluster;
    loop.onStep((output) => void node.afterStep(output));
  }
  // restore: snapshots and analysis state (standalone; a cluster replica restores its partitions
  // from the state topic as it is assigned them); then ready
  const restored = await restoreAnalysis(core, store, logger, cluster === undefined);
  publisher.start();
  loop.start();
  const retention = new RetentionSweeper(store, d.kpiRetentionDays, now, (error) => logger.error({ err: error }, 'retention sweep failed'));
  retention.start(10 * 60_000);
  ready = true;
  logger.info({ workloads: restored.workloads, reset_over_cap: restored.reset }, `restored ${restored.workloads} workloads; ready`);

  let closing: Promise<void> | undefined;
  return {
    ports: svc.ports,
    context: svc,
    close: () => {
      closing ??= (async () => {
        ready = false;
        injector.stopAll();
        for (const fn of closers) fn();
        await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        })));
        await statsd.stop();
        await grpcServer.stop();
        await loop.stop();
        await cluster?.stop();
        await publisher.stop();
        await retention.stop();
        heapAfterGc.stop();
        await db.close();
        logger.info('stopped');
      })();
      return closing;
    },
  };
}

async function restoreAnalysis(core: AnalysisCoreImpl, store: AnalysisStore, logger: Logger, analysisState: boolean): Promise<{ workloads: number; reset: number }> {
  let reset = 0;
  const rows = analysisState ? await store.loadWorkloads() : [];
  for (const { snapshot, state } of rows) {
    try {
      if (state !== undefined) core.importWorkload(snapshot.key, state);
    } catch (error) {
      logger.warn({ workload: snapshot.key, err: error }, 'stored analysis state unreadable; the workload restarts calibration');
    }
    if (snapshot.fusedR > 10) reset += 1;
  }
  return { workloads: rows.length, reset };
}

function parseBootstrapWeights(raw: unknown): WeightOverride[] | undefined {
  if (raw === undefined) return undefined;
  const parsed = weightOverridesBody.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SettingsError(`invalid setting SVC_WORKLOAD_WEIGHTS: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  return normaliseOverrides(parsed.data);
}

function parseBootstrapObjectives(raw: unknown): FailureObjective[] | undefined {
  if (raw === undefined) return undefined;
  const parsed = failureObjectivesBody.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SettingsError(`invalid setting SVC_WORKLOAD_OBJECTIVES: ${jsonPath(issue?.path ?? [])} ${issue?.message ?? 'invalid'}`.trim());
  }
  return objectivesFrom(parsed.data);
}
