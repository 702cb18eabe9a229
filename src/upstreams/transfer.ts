/**
 * Transfer plumbing of this upstream: a multipart/form-data body built in one
 * buffer, and asking about many tasks with a bounded number of requests in
 * flight.
 */
import { randomBytes } from 'node:crypto';

export interface FilePart {
  name: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A multipart/form-data body: text fields, then at most one file. */
export function multipartBody(fields: Array<[string, string]>, file?: FilePart): { body: Buffer; contentType: string } {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  const quote = (value: string) => value.replace(/["\r\n]/g, '_');
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${quote(file.name)}"; filename="${quote(file.filename)}"\r\ncontent-type: ${file.contentType}\r\n\r\n`),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Runs `work` for every item, at most `limit` at a time. Items whose work
 * failed are left out; when every item failed, the first error is thrown (so
 * the engine backs off the whole batch).
 */
export async function eachBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R | undefined>): Promise<Map<T, R>> {
  const out = new Map<T, R>();
  const queue = items.slice();
  let firstError: unknown;
  let failures = 0;
  const workers = Array.from({ length: Math.min(limit, queue.length) }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      try {
        const result = await work(item);
        if (result !== undefined) out.set(item, result);
      } catch (error) {
        failures++;
        firstError ??= error;
      }
    }
  });
  await Promise.all(workers);
  if (items.length > 0 && failures === items.length) throw firstError;
  return out;
}
