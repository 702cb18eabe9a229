/**
 * The interactive requests this instance has received, counted as they
 * arrive (a callback hook, one comparison and an increment): POSTs under
 * `/v1` (and `/v1beta`), the model calls. Reads, health checks and scrapes
 * are not counted. The batch loop's pace reads how many came in each window
 * (src/tasks/batches/pace.ts); batch lines never pass through HTTP.
 */
export class RequestArrivals {
  private seen = 0;

  get count(): number {
    return this.seen;
  }

  note(method: string, url: string): void {
    if (method === 'POST' && url.startsWith('/v1')) this.seen++;
  }
}
