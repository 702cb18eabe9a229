/**
 * The responses one Responses WebSocket can build on: the key's stored
 * responses, plus the turns of this connection that were not stored
 * (`store: false`). Codex's built-in provider sends `store: false` and, on the
 * socket, continues each turn with `previous_response_id` and only the new
 * items, as OpenAI allows on a WebSocket: the previous state lives with the
 * connection. Those turns are kept in memory until the socket closes, never
 * written to the database; the oldest go first past `MAX_KEPT_TURNS`.
 */
import type { Kysely } from 'kysely';
import type { FoundItem, StoredResponse } from '../../storage/responses.js';
import { ResponseRepository } from '../../storage/responses.js';

/** Far more turns than an agent's session holds on one socket; a bound on memory, not a limit met in use. */
export const MAX_KEPT_TURNS = 1_000;

export class ConnectionResponses extends ResponseRepository {
  private readonly kept = new Map<string, StoredResponse>();

  constructor(
    // biome-ignore lint/suspicious/noExplicitAny: the store hands over its untyped Kysely handle, as the storage layer does
    db: Kysely<any>,
    /** The instance's repository: every read and write that reaches the database goes through it (its group commits). */
    private readonly shared: ResponseRepository,
  ) {
    super(db);
  }

  override save(record: StoredResponse): Promise<void> {
    if (record.response.store !== false) return this.shared.save(record);
    this.kept.set(record.id, record);
    if (this.kept.size > MAX_KEPT_TURNS) this.kept.delete(this.kept.keys().next().value as string);
    return Promise.resolve();
  }

  override get(id: string, keyId: string): Promise<StoredResponse | undefined> {
    const kept = this.keptFor(id, keyId);
    return kept ? Promise.resolve(kept) : this.shared.get(id, keyId);
  }

  override async getMany(ids: readonly string[], keyId: string): Promise<StoredResponse[]> {
    const missing = ids.filter((id) => !this.keptFor(id, keyId));
    const stored = missing.length > 0 ? new Map((await this.shared.getMany(missing, keyId)).map((record) => [record.id, record])) : new Map<string, StoredResponse>();
    const ordered: StoredResponse[] = [];
    for (const id of ids) {
      const record = this.keptFor(id, keyId) ?? stored.get(id);
      if (record) ordered.push(record);
    }
    return ordered;
  }

  override async findItems(itemIds: readonly string[], keyId: string): Promise<Map<string, FoundItem>> {
    const found = new Map<string, FoundItem>();
    const rest: string[] = [];
    for (const itemId of itemIds) {
      const hit = this.findKept(itemId, keyId);
      if (hit) found.set(itemId, hit);
      else rest.push(itemId);
    }
    if (rest.length > 0) for (const [itemId, hit] of await this.shared.findItems(rest, keyId)) found.set(itemId, hit);
    return found;
  }

  override delete(id: string, keyId: string): Promise<boolean> {
    if (this.keptFor(id, keyId)) return Promise.resolve(this.kept.delete(id));
    return this.shared.delete(id, keyId);
  }

  private keptFor(id: string, keyId: string): StoredResponse | undefined {
    const record = this.kept.get(id);
    return record && record.keyId === keyId ? record : undefined;
  }

  /** The newest kept record holding the item wins, as in the database. */
  private findKept(itemId: string, keyId: string): FoundItem | undefined {
    const records = [...this.kept.values()];
    for (let i = records.length - 1; i >= 0; i--) {
      const record = records[i]!;
      if (record.keyId !== keyId) continue;
      const item = (record.response.output ?? []).find((candidate) => candidate.id === itemId) ?? record.input.find((candidate) => candidate.id === itemId);
      if (item) return { item, record };
    }
    return undefined;
  }
}
