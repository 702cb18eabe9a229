import { randomInt } from 'node:crypto';

/**
 * A task id as image-task clients expect it: a numeric string, epoch
 * milliseconds followed by three random digits (16 digits today). Two instances
 * creating a task in the same millisecond collide one time in a thousand; the
 * insert then fails on the primary key and is retried with a fresh id.
 */
export function newTaskId(now = Date.now()): string {
  return `${now}${randomInt(0, 1000).toString().padStart(3, '0')}`;
}
