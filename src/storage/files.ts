/**
 * Files uploaded through `/v1/files` and those the gateway writes (a batch's
 * output and error files): one row each, its bytes in the media store under
 * `media_key`. Every read names the key that owns the file, so a key never
 * sees another's file. Ids sort by time (`newSortableId`),
 * so a list pages by id alone.
 */
import type { Kysely } from 'kysely';
import { isUniqueViolation } from './columns.js';
import { newSortableId } from './ids.js';
import type { Store } from './types.js';

export interface FilesTable {
  id: string;
  key_id: string;
  team_id: string | null;
  user_id: string | null;
  purpose: string;
  filename: string;
  bytes: number;
  status: string;
  media_key: string;
  created_at: number;
  expires_at: number | null;
}

export interface FileRecord {
  id: string;
  keyId: string;
  teamId: string | null;
  userId: string | null;
  purpose: string;
  filename: string;
  bytes: number;
  status: string;
  mediaKey: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface FileListQuery {
  keyId: string;
  purpose?: string;
  /** The id of the last file of the previous page. */
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

type FilesDb = Kysely<{ files: FilesTable }>;

/** OpenAI's bounds on a file's expiry (`expires_after.seconds`, a batch's `output_expires_after.seconds`): one hour to 30 days. */
export const FILE_EXPIRY_SECONDS = { min: 3600, max: 2_592_000 } as const;

/** `file-`, the creation time and 16 random characters: ids sort by time. */
export function newFileId(now = Date.now()): string {
  return newSortableId('file-', 16, now);
}

export class FileRepository {
  private readonly db: FilesDb;

  constructor(store: Pick<Store, 'db'>) {
    this.db = store.db as FilesDb;
  }

  /** Stores the row; `id` may be given (a batch's output file, written again after a crash, keeps its id): false when it exists already. */
  async insert(file: FileRecord): Promise<boolean> {
    try {
      await this.db.insertInto('files').values(toRow(file)).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** The key's file, unexpired at `now`. */
  async get(id: string, keyId: string, now = Date.now()): Promise<FileRecord | undefined> {
    const row = await this.db.selectFrom('files').selectAll().where('id', '=', id).where('key_id', '=', keyId).executeTakeFirst();
    if (!row || (row.expires_at !== null && row.expires_at <= now)) return undefined;
    return toRecord(row);
  }

  async list(query: FileListQuery, now = Date.now()): Promise<FileRecord[]> {
    let select = this.db
      .selectFrom('files')
      .selectAll()
      .where('key_id', '=', query.keyId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    if (query.purpose !== undefined) select = select.where('purpose', '=', query.purpose);
    if (query.after !== undefined) select = select.where('id', query.order === 'asc' ? '>' : '<', query.after);
    const rows = await select.orderBy('id', query.order).limit(query.limit).execute();
    return rows.map(toRecord);
  }

  /** Removes the key's file row; the caller removes its bytes. */
  async delete(id: string, keyId: string): Promise<FileRecord | undefined> {
    const row = await this.db.deleteFrom('files').where('id', '=', id).where('key_id', '=', keyId).returningAll().executeTakeFirst();
    return row && toRecord(row);
  }

  /** Up to `limit` files expired at `now`, rows removed; their bytes are the caller's to remove. */
  async takeExpired(now: number, limit: number): Promise<FileRecord[]> {
    const ids = await this.db.selectFrom('files').select('id').where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
    if (ids.length === 0) return [];
    const rows = await this.db
      .deleteFrom('files')
      .where(
        'id',
        'in',
        ids.map((row) => row.id),
      )
      .returningAll()
      .execute();
    return rows.map(toRecord);
  }
}

function toRow(file: FileRecord): FilesTable {
  return {
    id: file.id,
    key_id: file.keyId,
    team_id: file.teamId,
    user_id: file.userId,
    purpose: file.purpose,
    filename: file.filename,
    bytes: file.bytes,
    status: file.status,
    media_key: file.mediaKey,
    created_at: file.createdAt,
    expires_at: file.expiresAt,
  };
}

function toRecord(row: FilesTable): FileRecord {
  return {
    id: row.id,
    keyId: row.key_id,
    teamId: row.team_id,
    userId: row.user_id,
    purpose: row.purpose,
    filename: row.filename,
    bytes: Number(row.bytes),
    status: row.status,
    mediaKey: row.media_key,
    createdAt: Number(row.created_at),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  };
}
