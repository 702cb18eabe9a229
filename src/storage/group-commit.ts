/**
 * Group commit: writes asked for in the same tick (and while the previous
 * group is committing) are written in ONE transaction, and every caller's
 * promise settles only after that transaction has committed. A caller that
 * answers its client after `await add(...)` therefore never answers with
 * something a crash could still lose: either the commit happened (and the
 * row is durable to the engine's setting) or the caller is still waiting.
 *
 * When a group's transaction fails, each of its writes is retried alone, so
 * one bad write (say a duplicate id) fails only its own caller.
 */

export interface GroupCommitOptions<T> {
  /** Writes every item of the group in one transaction; resolves after the commit. */
  writeGroup(items: readonly T[]): Promise<void>;
  /** Writes one item in its own transaction (the fallback when a group fails). */
  writeOne(item: T): Promise<void>;
  /** The most items in one transaction (default 256). */
  maxGroup?: number;
}

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T> {
  private queue: Pending<T>[] = [];
  private scheduled = false;
  private committing = false;
  private readonly maxGroup: number;

  constructor(private readonly options: GroupCommitOptions<T>) {
    this.maxGroup = Math.max(1, options.maxGroup ?? 256);
  }

  /** Queues the write; resolves once a transaction holding it has committed. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.committing) return;
    this.scheduled = true;
    // setImmediate: every request finishing in this turn of the event loop joins the group.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.committing) return;
    this.committing = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.maxGroup);
        await this.commitGroup(group);
      }
    } finally {
      this.committing = false;
    }
  }

  private async commitGroup(group: Pending<T>[]): Promise<void> {
    if (group.length > 1) {
      try {
        await this.options.writeGroup(group.map((pending) => pending.item));
        for (const pending of group) pending.resolve();
        return;
      } catch {
        // Fall through: each write alone, so only the faulty one fails.
      }
    }
    for (const pending of group) {
      try {
        await this.options.writeOne(pending.item);
        pending.resolve();
      } catch (error) {
        pending.reject(error);
      }
    }
  }
}
