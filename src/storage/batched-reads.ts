/**
 * Reads by id asked for in the same turn of the event loop go to the
 * database as one query. Over a network connection every query costs a
 * socket write, a wake-up of the database process and a reply to parse: under
 * load, fifty task fetches in flight made fifty round trips, and those
 * system calls were half the gateway's CPU. For PostgreSQL only: SQLite's
 * reads are synchronous calls with no round trip to save.
 */

type Waiter<Row> = { resolve: (row: Row | undefined) => void; reject: (error: unknown) => void };

export class BatchedReads<Row> {
  private waiting = new Map<string, Waiter<Row>[]>();
  private scheduled = false;

  constructor(
    /** The rows among `ids` (in any order; unknown ids left out). */
    private readonly readMany: (ids: string[]) => Promise<Row[]>,
    private readonly idOf: (row: Row) => string,
    private readonly maxBatch = 200,
  ) {}

  get(id: string): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(id, [{ resolve, reject }]);
      if (this.waiting.size >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate: every request read from the sockets in this turn joins the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.waiting;
    if (batch.size === 0) return;
    this.waiting = new Map();
    this.readMany([...batch.keys()]).then(
      (rows) => {
        for (const row of rows) {
          const id = this.idOf(row);
          for (const waiter of batch.get(id) ?? []) waiter.resolve(row);
          batch.delete(id);
        }
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.resolve(undefined);
      },
      (error: unknown) => {
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  }
}
