/**
 * Starts the gateway: `npm start`. Settings come from SWITCHYARD_* variables
 * (see README); with none, it runs embedded on SQLite under ./data with the
 * built-in simulator serving every model until a provider's channel is
 * configured.
 */
import { settingsFromEnv } from './config/env.js';
import { unknownVariables } from './config/env-unknown.js';
import { settingWarnings } from './config/env-reader.js';
import { createGateway } from './server/bootstrap.js';
import { createLogger } from './server/logger.js';
import { simulatorStartupLine } from './routing/simulator-setting.js';

async function main(): Promise<void> {
  const settings = settingsFromEnv();
  const logger = createLogger(settings.logLevel);
  for (const { variable, closest, message } of unknownVariables(process.env)) logger.warn({ variable, closest }, message);
  for (const message of settingWarnings(process.env)) logger.warn(message);
  const gateway = await createGateway(settings, { logger });
  const address = await gateway.listen();
  // Before the line below: whoever waits for it may signal at once, and a SIGTERM with no handler yet kills the process.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    gateway.ctx.logger.info({ signal }, 'shutting down');
    gateway.close().then(
      () => process.exit(0),
      (error) => {
        gateway.ctx.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  const { adminKey, clientKey } = gateway.generated;
  const lines = [`Switchyard listening on ${address} (storage: ${gateway.ctx.store.engine})`];
  lines.push(simulatorStartupLine(gateway.ctx.channels));
  if (adminKey) lines.push(`Admin key (shown once, store it now): ${adminKey}`);
  if (clientKey) lines.push(`Client API key "default" (shown once, store it now): ${clientKey}`);
  process.stdout.write(lines.join('\n') + '\n');
  // For the bundle's loader (scripts/gateway-loader.mjs): the start is over, every Node built-in it needs is loaded.
  (process as NodeJS.EventEmitter).emit('switchyard:listening');
}

main().catch((error) => {
  process.stderr.write(`switchyard failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
