/**
 * `npm run operator`: kubeconfig from the default chain (KUBECONFIG, ~/.kube/config, in-cluster),
 * settings from the environment, JSON logs; SIGTERM stops the workers and releases the Lease;
 * losing leadership exits the process (operator.md §11).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { Operator } from './operator.js';
import { OperatorMetrics } from './ops/operator-metrics.js';
import { startOpsServer } from './ops/ops-server.js';
import { loadOperatorSettings } from './settings.js';
import { SidecarClient } from './sidecar/sidecar-client.js';

const settings = loadOperatorSettings(process.env);
const logger = pino({ level: settings.logLevel, base: { service: 'faultline-operator', identity: settings.identity } });
const kc = new KubeConfig();
kc.loadFromDefault();
const metrics = new OperatorMetrics();
const operator = new Operator(kc, settings, new SidecarClient(settings.engineUrl, settings.apiKey), logger, metrics, (reason) => {
  logger.error({ leader: false, reason }, 'lost leadership; exiting');
  process.exit(1);
});
const ops = await startOpsServer(settings.opsPort, metrics, () => operator.isLeader);
logger.info({ opsPort: ops.port, engine: settings.engineUrl, namespace: settings.namespace }, 'operator starting');
await operator.start();

let stopping = false;
const shutdown = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping; releasing the lease');
  void operator.stop().finally(() => {
    ops.server.close();
    process.exit(0);
  });
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
