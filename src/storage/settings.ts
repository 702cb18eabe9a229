import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { SettingsRepository } from './types.js';

export class KyselySettingsRepository implements SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  }

  async setIfAbsent(name: string, value: string): Promise<string> {
    await this.db
      .insertInto('settings')
      .values({ name, value, updated_at: Date.now() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return (await this.get(name)) ?? value;
  }

  async set(name: string, value: string): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('settings')
      .values({ name, value, updated_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
      .execute();
  }
}
