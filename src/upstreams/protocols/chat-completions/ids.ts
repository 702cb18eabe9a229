import { randomUUID } from 'node:crypto';

const shortId = () => randomUUID().replace(/-/g, '').slice(0, 24);

/** Some compatible servers omit tool call ids; clients need one to pair results with calls. */
export function newToolCallId(): string {
  return `call_${shortId()}`;
}

/** For servers whose answers carry no id. */
export function newCompletionId(): string {
  return `chatcmpl-${shortId()}`;
}
