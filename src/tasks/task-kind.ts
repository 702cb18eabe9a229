/**
 * A task kind (images, videos) and its typed view of the JSON the engine
 * stores without reading: the request a family wrote, the result upstreams
 * reported, the bookkeeping an upstream keeps. Only the kind's own code
 * writes these columns, so the one unchecked step from JSON to the kind's
 * shapes happens here instead of at every read.
 */
import type { JsonObject, TaskKind, TaskRecord } from './types.js';

export type { TaskKind } from './types.js';

export function defineTaskKind<Request extends object, Result extends object>(family: string): TaskKind<Request, Result> {
  return {
    family,
    request: (task) => task.request as unknown as Request,
    result: (task) => task.result as unknown as Result | null,
    requestJson: (request) => ({ ...request }) as JsonObject,
  };
}

/** An upstream's private bookkeeping on a task, in the shape that upstream wrote. */
export function upstreamDataOf<Data extends object>(task: TaskRecord): Data | null {
  return task.upstreamData as unknown as Data | null;
}

/** Bookkeeping in the shape the engine stores. */
export function upstreamDataJson(data: object): JsonObject {
  return { ...data } as JsonObject;
}
