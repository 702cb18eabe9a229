/**
 * Batch rows. A batch is created with all its lines in one transaction; every
 * later change of its status is a compare-and-set on `version`, so of two
 * instances finishing, cancelling or expiring it at once exactly one does.
 */
import { sql } from 'kysely';
import { FINAL_BATCH_STATUSES, toBatchRecord, type BatchApi, type BatchDb, type BatchesTable, type BatchRecord, type BatchStatus } from './schema.js';

/** Lines per insert: twelve parameters each, well under both engines' limits. */
const LINE_CHUNK = 200;

export interface NewBatchLine {
  customId: string;
  body: string;
}

export interface BatchListQuery {
  keyId: string;
  api: BatchApi;
  /** Newer than this id (Anthropic's `before_id`: the page before it). */
  newerThan?: string;
  /** Older than this id (OpenAI's `after`, Anthropic's `after_id`). */
  olderThan?: string;
  limit: number;
}

export type BatchPatch = Partial<Omit<BatchesTable, 'id' | 'api' | 'key_id' | 'version' | 'created_at'>>;

export class BatchRepository {
  constructor(private readonly db: BatchDb) {}

  /** The batch and its lines, all or nothing. */
  async create(row: BatchesTable, lines: readonly NewBatchLine[]): Promise<BatchRecord> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('batches').values(row).execute();
      for (let start = 0; start < lines.length; start += LINE_CHUNK) {
        const values = lines.slice(start, start + LINE_CHUNK).map((line, offset) => ({
          batch_id: row.id,
          idx: start + offset,
          custom_id: line.customId,
          body: line.body,
          status: 'pending',
          lease_owner: null,
          lease_until: null,
          attempt: 0,
          request_id: null,
          response: null,
          error: null,
          delegation_id: null,
          updated_at: row.created_at,
        }));
        await trx.insertInto('batch_lines').values(values).execute();
      }
    });
    return toBatchRecord(row);
  }

  async get(id: string): Promise<BatchRecord | undefined> {
    const row = await this.db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toBatchRecord(row);
  }

  /** The key's batch of that API, or undefined (another key's batch is not found). */
  async owned(id: string, keyId: string, api: BatchApi): Promise<BatchRecord | undefined> {
    const row = await this.db.selectFrom('batches').selectAll().where('id', '=', id).where('key_id', '=', keyId).where('api', '=', api).executeTakeFirst();
    return row && toBatchRecord(row);
  }

  /** Newest first; with `newerThan`, the batches just newer than it, still given newest first. */
  async list(query: BatchListQuery): Promise<BatchRecord[]> {
    let select = this.db.selectFrom('batches').selectAll().where('key_id', '=', query.keyId).where('api', '=', query.api);
    if (query.olderThan !== undefined) select = select.where('id', '<', query.olderThan);
    if (query.newerThan !== undefined) {
      const rows = await select.where('id', '>', query.newerThan).orderBy('id', 'asc').limit(query.limit).execute();
      return rows.reverse().map(toBatchRecord);
    }
    const rows = await select.orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map(toBatchRecord);
  }

  /** Batches the runners have work in: running, cancelling or being finalized; oldest first. */
  async active(limit: number): Promise<BatchRecord[]> {
    const rows = await this.db.selectFrom('batches').selectAll().where('status', 'in', ['in_progress', 'cancelling', 'finalizing']).orderBy('id').limit(limit).execute();
    return rows.map(toBatchRecord);
  }

  /** Applies `patch` if the batch is still at the version it was read at; the new record, or undefined when another change came first. */
  async transition(batch: BatchRecord, patch: BatchPatch, now = Date.now()): Promise<BatchRecord | undefined> {
    const row = await this.db
      .updateTable('batches')
      .set({ ...patch, version: batch.version + 1, updated_at: now })
      .where('id', '=', batch.id)
      .where('version', '=', batch.version)
      .returningAll()
      .executeTakeFirst();
    return row && toBatchRecord(row);
  }

  /** Removes an ended batch and its lines (Anthropic's delete). */
  async delete(batch: BatchRecord): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('batches')
        .where('id', '=', batch.id)
        .where('status', 'in', [...FINAL_BATCH_STATUSES])
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      await trx.deleteFrom('batch_lines').where('batch_id', '=', batch.id).execute();
      return true;
    });
  }
}

export const isFinalBatch = (status: BatchStatus): boolean => FINAL_BATCH_STATUSES.includes(status);

/** The text of a JSON column, or null. */
export const jsonText = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** `count(*)` as a number on both engines. */
export const countAll = sql<number>`count(*)`;
