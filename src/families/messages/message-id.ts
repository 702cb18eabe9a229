/** Message ids carry the `msg_` prefix the Messages clients expect. */
import { randomUUID } from 'node:crypto';

export function toMessageId(id: string | undefined): string {
  if (!id) return newMessageId();
  return id.startsWith('msg_') ? id : `msg_${id}`;
}

export function newMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}
