import type { Kysely, Selectable, Updateable } from 'kysely';
import { conflict, fromJson, isUniqueViolation, toJson, toNumber } from './columns.js';
import { isWellFormedId, newId } from './ids.js';
import type { ChannelsTable, Database } from './schema.js';
import type { ChannelPatch, ChannelRecord, ChannelRepository, ChannelStatus, NewChannel } from './types.js';

function toRecord(row: Selectable<ChannelsTable>): ChannelRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    baseUrl: row.base_url,
    apiKeysEncrypted: fromJson<string[]>(row.api_keys) ?? [],
    models: fromJson<string[]>(row.models) ?? [],
    modelMapping: fromJson<Record<string, string>>(row.model_mapping) ?? {},
    priority: toNumber(row.priority),
    weight: toNumber(row.weight),
    status: row.status as ChannelStatus,
    settings: fromJson<Record<string, unknown>>(row.settings) ?? {},
    createdAt: toNumber(row.created_at),
    updatedAt: toNumber(row.updated_at),
  };
}

function toColumns(patch: ChannelPatch): Updateable<ChannelsTable> {
  const set: Updateable<ChannelsTable> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.type !== undefined) set.type = patch.type;
  if (patch.baseUrl !== undefined) set.base_url = patch.baseUrl;
  if (patch.apiKeysEncrypted !== undefined) set.api_keys = toJson(patch.apiKeysEncrypted);
  if (patch.models !== undefined) set.models = toJson(patch.models);
  if (patch.modelMapping !== undefined) set.model_mapping = toJson(patch.modelMapping);
  if (patch.priority !== undefined) set.priority = patch.priority;
  if (patch.weight !== undefined) set.weight = patch.weight;
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.settings !== undefined) set.settings = toJson(patch.settings);
  return set;
}

const clash = (error: unknown, name: string | undefined): unknown => (isUniqueViolation(error) ? conflict(`a channel named "${name ?? ''}"`, error) : error);

export class KyselyChannelRepository implements ChannelRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(channel: NewChannel): Promise<ChannelRecord> {
    const now = Date.now();
    try {
      const row = await this.db
        .insertInto('channels')
        .values({
          id: newId('ch'),
          name: channel.name,
          type: channel.type,
          base_url: channel.baseUrl,
          api_keys: toJson(channel.apiKeysEncrypted),
          models: toJson(channel.models),
          model_mapping: toJson(channel.modelMapping ?? {}),
          priority: channel.priority ?? 0,
          weight: channel.weight ?? 1,
          status: channel.status ?? 'enabled',
          settings: toJson(channel.settings ?? {}),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    } catch (error) {
      throw clash(error, channel.name);
    }
  }

  async get(id: string): Promise<ChannelRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const row = await this.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async getByName(name: string): Promise<ChannelRecord | undefined> {
    const row = await this.db.selectFrom('channels').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(): Promise<ChannelRecord[]> {
    const rows = await this.db.selectFrom('channels').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toRecord);
  }

  async update(id: string, patch: ChannelPatch): Promise<ChannelRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const set = toColumns(patch);
    set.updated_at = Date.now();
    try {
      const row = await this.db.updateTable('channels').set(set).where('id', '=', id).returningAll().executeTakeFirst();
      return row && toRecord(row);
    } catch (error) {
      throw clash(error, patch.name);
    }
  }

  async delete(id: string): Promise<boolean> {
    if (!isWellFormedId(id)) return false;
    const result = await this.db.deleteFrom('channels').where('id', '=', id).executeTakeFirst();
    return toNumber(result.numDeletedRows) > 0;
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('channels')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return toNumber(row.n);
  }
}
