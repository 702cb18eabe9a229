import type { Kysely } from 'kysely';
import { KyselyAuditRepository } from './audit-log.js';
import { KyselyChannelRepository } from './channels.js';
import { KyselyKeyRepository } from './keys.js';
import { KyselyPriceRepository } from './prices.js';
import type { Database } from './schema.js';
import { KyselySettingsRepository } from './settings.js';
import type { StoreWrites } from './types.js';

/** The repositories an administrative change writes through, over the database or one transaction of it. */
export function storeWrites(db: Kysely<Database>): StoreWrites {
  return {
    keys: new KyselyKeyRepository(db),
    channels: new KyselyChannelRepository(db),
    settings: new KyselySettingsRepository(db),
    prices: new KyselyPriceRepository(db),
    audit: new KyselyAuditRepository(db),
  };
}
