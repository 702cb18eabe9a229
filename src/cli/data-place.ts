/**
 * Where the CLI finds the gateway's data: the same rule as the gateway
 * (`--data-dir`, else SWITCHYARD_DATA_DIR, else ./data), with one guard the
 * gateway does not need: run from the wrong directory, the CLI would quietly
 * create a second, empty database and edit that. It refuses instead unless
 * the directory already exists or was named with `--data-dir`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GatewaySettings } from '../config/env.js';
import { GatewayError } from '../core/errors.js';
import { redactUrl } from '../storage/postgres-connection.js';

export interface DataPlace {
  dataDir: string;
  /** One line for stderr naming the storage the command works on. */
  description: string;
}

export function resolveDataPlace(settings: GatewaySettings, dataDirFlag: string | undefined): DataPlace {
  const dataDir = dataDirFlag !== undefined ? path.resolve(dataDirFlag) : settings.dataDir;
  const onPostgres = settings.databaseUrl !== undefined && /^postgres(ql)?:\/\//i.test(settings.databaseUrl);
  // On PostgreSQL with SWITCHYARD_SECRET_KEY nothing is read from the data directory.
  const usesDataDir = !onPostgres || settings.secretKey === undefined;
  if (usesDataDir && dataDirFlag === undefined && !existsSync(dataDir)) {
    throw new GatewayError(
      'invalid_request',
      `data directory ${dataDir} does not exist, so this would start a new, empty database.\n` +
        "Run the CLI where the gateway runs, set SWITCHYARD_DATA_DIR to the gateway's data directory, " +
        'or pass --data-dir DIR to create one there on purpose.',
    );
  }
  const description = onPostgres
    ? `PostgreSQL ${redactUrl(settings.databaseUrl as string)}${settings.databaseSchema ? ` (schema ${settings.databaseSchema})` : ''}` + (usesDataDir ? `, secret key in ${dataDir}` : '')
    : `SQLite ${path.join(dataDir, 'switchyard.db')}`;
  return { dataDir, description };
}
