/**
 * `npm start`: the standalone api-server. Settings from flags, environment and YAML; an invalid
 * setting stops the process with one line naming it. SIGTERM/SIGINT stop gracefully within 10 s.
 */
import { SettingsError, loadSettings } from './config/load-settings.js';
import { startServer } from './server.js';
import { applyJitBudget } from './config/jit-budget.js';

async function main(): Promise<void> {
  let settings;
  try {
    settings = loadSettings(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof SettingsError) {
      process.stderr.write(`faultline: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  // before the first analysis step is optimised (config/jit-budget.ts)
  applyJitBudget(settings.jitBudget);
  const server = await startServer(settings);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    server.context.logger.info({ signal }, 'stopping');
    const deadline = setTimeout(() => {
      server.context.logger.error('graceful stop took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    deadline.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.context.logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`faultline: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
