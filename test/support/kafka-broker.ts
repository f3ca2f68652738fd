/**
 * A real single-node Kafka broker in KRaft mode (broker and controller in one JVM), from the jars
 * hack/install-kafka.sh fetched from Maven Central, on free loopback ports in a temp folder
 * (operator.md §17.8). stop/start keep the ports and the data, as a broker restart would.
 * Missing jars: an error saying how to fetch them (no skip).
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitForPort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

export interface KafkaBroker {
  bootstrap: string;
  stop(): Promise<void>;
  kill(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

const KAFKA_VERSION = process.env['KAFKA_VERSION'] ?? '4.1.1';

function kafkaLib(): string {
  const cache = process.env['FAULTLINE_CACHE'] ?? join(homedir(), '.cache', 'faultline');
  const home = process.env['KAFKA_HOME'] ?? join(cache, `kafka-${KAFKA_VERSION}`);
  const lib = join(home, 'lib');
  if (!existsSync(join(lib, `kafka_2.13-${KAFKA_VERSION}.jar`))) throw new Error(`Kafka ${KAFKA_VERSION} jars not found in ${lib}: run bash hack/install-kafka.sh (hack/ci-prepare.sh does)`);
  return lib;
}

/**
 * A base64url UUID as KRaft wants for the cluster id. It may begin with '-', so it is passed as
 * `--cluster-id=<id>` (as `-t <id>` the tool's argument parser took it for an option: a CI run failed so).
 */
function clusterId(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

const JVM = ['-Xms128m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true'];

export async function startKafkaBroker(): Promise<KafkaBroker> {
  const lib = kafkaLib();
  const dir = await makeTempDir('kafka');
  const [port, controllerPort] = [await freePort(), await freePort()];
  const props = join(dir.path, 'server.properties');
  const log4j = join(dir.path, 'log4j2.properties');
  const logFile = join(dir.path, 'broker.log');
  await writeFile(
    props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=PLAINTEXT',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      `log.dirs=${join(dir.path, 'data')}`,
      'num.partitions=1',
      'auto.create.topics.enable=true',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'transaction.state.log.num.partitions=1',
      'share.coordinator.state.topic.replication.factor=1',
      'share.coordinator.state.topic.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'log.flush.interval.messages=1',
    ].join('\n') + '\n',
  );
  await writeFile(
    log4j,
    [
      'status = warn',
      'appender.file.type = File',
      'appender.file.name = FILE',
      `appender.file.fileName = ${logFile}`,
      'appender.file.layout.type = PatternLayout',
      'appender.file.layout.pattern = [%d] %p %m (%c)%n',
      'rootLogger.level = INFO',
      'rootLogger.appenderRef.file.ref = FILE',
    ].join('\n') + '\n',
  );
  const classpath = `${lib}/*`;
  const env = { ...process.env, KAFKA_HEAP_OPTS: '' };
  await promisify(execFile)('java', [...JVM, `-Dlog4j2.configurationFile=${log4j}`, '-cp', classpath, 'kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId()}`, '-c', props, '--standalone'], { env }).catch(async () => {
    // --standalone needs controller.quorum.bootstrap.servers; with static voters plain format is right
    await promisify(execFile)('java', [...JVM, `-Dlog4j2.configurationFile=${log4j}`, '-cp', classpath, 'kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId()}`, '-c', props], { env });
  });

  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn('java', [...JVM, `-Dlog4j2.configurationFile=${log4j}`, '-cp', classpath, 'kafka.Kafka', props], { stdio: 'ignore', env });
    const proc = child;
    try {
      await waitForPort(port, 60_000);
    } catch (error) {
      proc.kill('SIGKILL');
      const tail = (await readFile(logFile, 'utf8').catch(() => 'no log')).split('\n').slice(-30).join('\n');
      throw new Error(`${(error as Error).message}; broker log tail:\n${tail}`);
    }
  };
  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill(signal);
    });
  };
  await start();
  return {
    bootstrap: `127.0.0.1:${port}`,
    start,
    stop: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    remove: async () => {
      await halt('SIGKILL');
      await dir.remove();
    },
  };
}
