/**
 * The audit log on both engines. Entries are written one at a time, inside
 * the transaction of the change they describe (Store.transaction), so a
 * change that fails or is rolled back leaves none.
 */
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { fromJson, toJson, toNumber } from './columns.js';
import type { AuditActor, AuditEntry, AuditQuery } from './audit-types.js';
import { auditTargetOf } from './audit-views.js';
import { isWellFormedId, newTimeOrderedId } from './ids.js';
import { olderThan } from './paging.js';
import type { AuditLogTable, Database } from './schema.js';
import type { AuditAction, AuditKind, AuditRepository, AuditSubjects } from './types.js';
import { storableNullable, storableText } from './text.js';

const defaultLimit = 100;
const maxLimit = 1000;

/**
 * The time part of the last id this process gave: each id's is later, so the
 * entries one change writes within a millisecond (a config file applied)
 * page back in the order they were made.
 */
let lastStamp = 0;
function nextStamp(at: number): number {
  lastStamp = Math.max(at, lastStamp + 1);
  return lastStamp;
}

function toEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    at: toNumber(row.at),
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    actorName: row.actor_name,
    action: row.action,
    targetKind: row.target_kind,
    targetId: row.target_id,
    targetName: row.target_name,
    before: fromJson<Record<string, unknown>>(row.before),
    after: fromJson<Record<string, unknown>>(row.after),
    requestId: row.request_id,
    clientIp: row.client_ip,
  };
}

export class KyselyAuditRepository implements AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async record<K extends AuditKind>(actor: AuditActor, action: AuditAction<K>, kind: K, before: AuditSubjects[K] | null, after: AuditSubjects[K] | null): Promise<AuditEntry> {
    const at = Date.now();
    const target = auditTargetOf(kind, before, after);
    const row: Insertable<AuditLogTable> = {
      id: newTimeOrderedId('aud', nextStamp(at)),
      at,
      actor_kind: actor.kind,
      actor_id: storableNullable(actor.id),
      actor_name: storableNullable(actor.name),
      action: storableText(action),
      target_kind: kind,
      target_id: storableNullable(target.targetId),
      target_name: storableNullable(target.targetName),
      before: target.before === null ? null : toJson(target.before),
      after: target.after === null ? null : toJson(target.after),
      request_id: storableNullable(actor.requestId),
      client_ip: storableNullable(actor.clientIp),
    };
    await this.db.insertInto('audit_log').values(row).execute();
    return toEntry(row as Selectable<AuditLogTable>);
  }

  async get(id: string): Promise<AuditEntry | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const row = await this.db.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toEntry(row);
  }

  async query(query: AuditQuery): Promise<AuditEntry[]> {
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? defaultLimit), 1), maxLimit);
    let select = this.db.selectFrom('audit_log').selectAll();
    if (query.actorKind !== undefined) select = select.where('actor_kind', '=', query.actorKind);
    if (query.actorId !== undefined) select = select.where('actor_id', '=', query.actorId);
    if (query.targetKind !== undefined) select = select.where('target_kind', '=', query.targetKind);
    if (query.targetId !== undefined) select = select.where('target_id', '=', query.targetId);
    // A prefix compared as text, not LIKE: no wildcard to escape, and no engine folds case.
    if (query.actionPrefix !== undefined) select = select.where(sql<boolean>`substr(action, 1, ${sql.lit(query.actionPrefix.length)}) = ${query.actionPrefix}`);
    if (query.since !== undefined) select = select.where('at', '>=', query.since);
    if (query.until !== undefined) select = select.where('at', '<', query.until);
    if (query.after !== undefined) select = select.where(olderThan(query.after, 'at'));
    const rows = await select.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toEntry);
  }

  async prune(options: { before: number; batch: number }): Promise<number> {
    const oldest = this.db.selectFrom('audit_log').select('id').where('at', '<', options.before).orderBy('at').limit(options.batch);
    const result = await this.db.deleteFrom('audit_log').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
