/**
 * Stored responses (family E). A record keeps one response object (with its
 * output items), the input items of that turn, the ids of the turns before it
 * (so a whole conversation is read back in one query), and where it was
 * produced: the channel, whether it went through the native pass-through, and
 * the upstream's own response id when the upstream stored it too.
 *
 * Every read is scoped to the key that created the record: another key's
 * record is "not found", never "forbidden".
 */
import { BatchWrites } from './batch-writes.js';
import { paddedInList } from './id-lists.js';
import type { Kysely } from 'kysely';
import { GroupCommit } from './group-commit.js';
import { fromFlag, fromJson, toFlag, toJson, toNumber } from './columns.js';
import { isWellFormedId } from './ids.js';
import { storableNullable } from './text.js';

export type StoredItem = Record<string, unknown>;

export interface StoredResponse {
  id: string;
  keyId: string;
  previousResponseId: string | null;
  /** Ids of the earlier turns of the conversation, oldest first (this one excluded). */
  chain: string[];
  /** The response object as the gateway answered it, output items included. */
  response: StoredItem & { output?: StoredItem[] };
  /** This turn's input items, with item references already resolved. */
  input: StoredItem[];
  channelId: string | null;
  /** Produced by an upstream speaking the Responses dialect natively (its item ids are its own). */
  native: boolean;
  /** The upstream's id for the same response, when the upstream stored it as well. */
  upstreamResponseId: string | null;
  createdAt: number;
}

/** Where an item was found: the item and the record that holds it. */
export interface FoundItem {
  item: StoredItem;
  record: StoredResponse;
}

interface ResponseRow {
  id: string;
  key_id: string;
  previous_response_id: string | null;
  chain: string;
  response: string;
  input: string;
  channel_id: string | null;
  native: number;
  upstream_response_id: string | null;
  created_at: number;
}

/** Ids per `IN (…)` list: well under both engines' parameter limits. */
const idChunk = 500;

function toRow(record: StoredResponse): ResponseRow {
  return {
    id: record.id,
    key_id: record.keyId,
    previous_response_id: storableNullable(record.previousResponseId),
    chain: toJson(record.chain),
    response: toJson(record.response),
    input: toJson(record.input),
    channel_id: record.channelId,
    native: toFlag(record.native),
    upstream_response_id: storableNullable(record.upstreamResponseId),
    created_at: record.createdAt,
  };
}

function toRecord(row: ResponseRow): StoredResponse {
  return {
    id: row.id,
    keyId: row.key_id,
    previousResponseId: row.previous_response_id,
    chain: fromJson<string[]>(row.chain) ?? [],
    response: fromJson<StoredResponse['response']>(row.response) ?? {},
    input: fromJson<StoredItem[]>(row.input) ?? [],
    channelId: row.channel_id,
    native: fromFlag(row.native),
    upstreamResponseId: row.upstream_response_id,
    createdAt: toNumber(row.created_at),
  };
}

/**
 * The ids of a record's items, each once (a client may repeat an id in its
 * input). Only ids a lookup could ever match are indexed: a client's id with
 * a NUL byte (which PostgreSQL cannot store) or kilobytes long is not.
 */
function itemIds(record: StoredResponse): string[] {
  const ids = new Set<string>();
  for (const item of record.input) if (isWellFormedId(item.id)) ids.add(item.id);
  for (const item of record.response.output ?? []) if (isWellFormedId(item.id)) ids.add(item.id);
  return [...ids];
}

/** Inserts the records and their item index rows (inside the caller's transaction). */
async function insertRecords(trx: Kysely<any>, records: readonly StoredResponse[], writes: BatchWrites): Promise<void> {
  const rows = records.map(toRow);
  await writes.execute(trx, 'responses', rows, (batch) => trx.insertInto('responses').values(batch));
  const itemRows = records.flatMap((record) => itemIds(record).map((itemId) => ({ response_id: record.id, item_id: itemId, key_id: record.keyId, created_at: record.createdAt })));
  await writes.execute(trx, 'response_items', itemRows, (batch) => trx.insertInto('response_items').values(batch));
}

export class ResponseRepository {
  /** Saves finishing in the same tick share one transaction (see group-commit.ts). */
  private readonly commits: GroupCommit<StoredResponse>;
  private readonly writes = new BatchWrites();

  constructor(private readonly db: Kysely<any>) {
    this.commits = new GroupCommit<StoredResponse>({
      writeGroup: (records) => this.db.transaction().execute((trx) => insertRecords(trx, records, this.writes)),
      writeOne: (record) => this.db.transaction().execute((trx) => insertRecords(trx, [record], this.writes)),
    });
  }

  /** Resolves only once the record is committed: an answer released after it survives a crash. */
  save(record: StoredResponse): Promise<void> {
    return this.commits.add(record);
  }

  async get(id: string, keyId: string): Promise<StoredResponse | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const row = await this.db.selectFrom('responses').selectAll().where('id', '=', id).where('key_id', '=', keyId).executeTakeFirst();
    return row && toRecord(row as ResponseRow);
  }

  /** The records with these ids that belong to the key, in the order of `ids` (missing ones skipped). */
  async getMany(ids: readonly string[], keyId: string): Promise<StoredResponse[]> {
    const found = new Map<string, StoredResponse>();
    const wellFormed = ids.filter(isWellFormedId);
    for (let i = 0; i < wellFormed.length; i += idChunk) {
      const rows = await this.db
        .selectFrom('responses')
        .selectAll()
        .where('id', 'in', paddedInList(wellFormed.slice(i, i + idChunk)))
        .where('key_id', '=', keyId)
        .execute();
      for (const row of rows) found.set((row as ResponseRow).id, toRecord(row as ResponseRow));
    }
    const ordered: StoredResponse[] = [];
    for (const id of ids) {
      const record = found.get(id);
      if (record) ordered.push(record);
    }
    return ordered;
  }

  /** Finds items by id among the key's records; when an id occurs in several, the newest record wins. */
  async findItems(itemIdsAsked: readonly string[], keyId: string): Promise<Map<string, FoundItem>> {
    const found = new Map<string, FoundItem>();
    const itemIdsWanted = itemIdsAsked.filter(isWellFormedId);
    if (itemIdsWanted.length === 0) return found;
    const owners = new Map<string, { responseId: string; createdAt: number }>();
    for (let i = 0; i < itemIdsWanted.length; i += idChunk) {
      const rows = await this.db
        .selectFrom('response_items')
        .select(['item_id', 'response_id', 'created_at'])
        .where('key_id', '=', keyId)
        .where('item_id', 'in', paddedInList(itemIdsWanted.slice(i, i + idChunk)))
        .execute();
      for (const row of rows as Array<{ item_id: string; response_id: string; created_at: unknown }>) {
        const createdAt = toNumber(row.created_at);
        const current = owners.get(row.item_id);
        if (!current || createdAt > current.createdAt) owners.set(row.item_id, { responseId: row.response_id, createdAt });
      }
    }
    const records = await this.getMany([...new Set([...owners.values()].map((owner) => owner.responseId))], keyId);
    const byId = new Map(records.map((record) => [record.id, record]));
    for (const [itemId, owner] of owners) {
      const record = byId.get(owner.responseId);
      if (!record) continue;
      const item = (record.response.output ?? []).find((candidate) => candidate.id === itemId) ?? record.input.find((candidate) => candidate.id === itemId);
      if (item) found.set(itemId, { item, record });
    }
    return found;
  }

  /** Deletes the record and its item index; false when the key has no such record. */
  async delete(id: string, keyId: string): Promise<boolean> {
    if (!isWellFormedId(id)) return false;
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('responses').where('id', '=', id).where('key_id', '=', keyId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await trx.deleteFrom('response_items').where('response_id', '=', id).execute();
      return true;
    });
  }
}
