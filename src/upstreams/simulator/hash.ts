/** Deterministic identifiers and choices: everything the simulator varies comes from a hash. */
import { createHash } from 'node:crypto';
import type { ChatRequest } from '../../core/chat.js';

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export function hashHex(text: string, length = 24): string {
  return sha256(text).toString('hex').slice(0, length);
}

/** A non-negative 32-bit number drawn from the text. */
export function hashNumber(text: string): number {
  return sha256(text).readUInt32BE(0);
}

/** The request's identity: the same request streamed or not gets the same ids. */
export function requestFingerprint(request: ChatRequest): string {
  return hashHex(JSON.stringify({ ...request, stream: undefined }), 64);
}
