/**
 * Every migration, in order. Names sort in the order they run; a later concern
 * (tasks, stored responses) adds its own file and one entry at the end.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { introspectingOnly } from './schema-introspector.js';
import { initial } from './0001_initial.js';
import { responses } from './0002_responses.js';
import { tasks } from './0003_tasks.js';
import { translation } from './0004_translation.js';
import { quotaHolds } from './0005_quota_holds.js';
import { logIndexes } from './0006_log_indexes.js';
import { usageSums } from './0007_usage_sums.js';
import { billing } from './0008_billing.js';
import { costs } from './0009_costs.js';
import { teams } from './0010_teams.js';
import { audit } from './0011_audit.js';
import { budgets } from './0012_budgets.js';
import { userRoles } from './0013_user_roles.js';
import { adminTokens } from './0014_admin_tokens.js';
import { adminSessions } from './0015_admin_sessions.js';
import { filesBatches } from './0016_files_batches.js';
import { images } from './0017_images.js';
import { batchDelegations } from './0018_batch_delegations.js';
import { batchOutputExpiry } from './0019_batch_output_expiry.js';
import { logIndexTrim } from './0020_log_index_trim.js';
import { delegationCreateStarted } from './0021_delegation_create_started.js';

export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_responses': responses,
  '0003_tasks': tasks,
  '0004_translation': translation,
  '0005_quota_holds': quotaHolds,
  '0006_log_indexes': logIndexes,
  '0007_usage_sums': usageSums,
  '0008_billing': billing,
  '0009_costs': costs,
  '0010_teams': teams,
  '0011_audit': audit,
  '0012_budgets': budgets,
  '0013_user_roles': userRoles,
  '0014_admin_tokens': adminTokens,
  '0015_admin_sessions': adminSessions,
  '0016_files_batches': filesBatches,
  '0017_images': images,
  '0018_batch_delegations': batchDelegations,
  '0019_batch_output_expiry': batchOutputExpiry,
  '0020_log_index_trim': logIndexTrim,
  '0021_delegation_create_started': delegationCreateStarted,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/**
 * The migrator of a store: on PostgreSQL (`schema` named) its table lives in
 * that schema and its existence checks read that schema alone
 * (schema-introspector.ts), so schemas other processes drop meanwhile do not
 * fail it; else the database's own.
 */
export function storeMigrator(db: Kysely<any>, schema?: string): Migrator {
  return new Migrator({ db: schema === undefined ? db : introspectingOnly(db, schema), provider: migrationProvider, migrationTableSchema: schema });
}
