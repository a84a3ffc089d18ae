// `npm start`: load the config, start the gateway, and shut down gracefully on SIGTERM/SIGINT.
import { loadConfig } from './config.js';
import { StartupError, isStartupError } from './config-error.js';
import { startGateway } from './gateway.js';
import { operatorLogger } from './operator-logger.js';

async function main(): Promise<void> {
  const loaded = loadConfig();
  const logger = operatorLogger(loaded);
  logger.info(`config: ${loaded.source}`, { startup: 'config' });
  const running = await startGateway(loaded, logger);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: draining in-flight requests, then exiting`);
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error(`shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  // One clear line for the operator; a stack only for what is not a known startup error.
  if (isStartupError(err)) process.stderr.write(`sluice: ${err.toString()}\n`);
  else process.stderr.write(`sluice: failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
