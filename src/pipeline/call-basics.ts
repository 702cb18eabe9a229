/** The fields every routed request (a generation or a count) takes from the HTTP request it came in. */
import type { FastifyRequest } from 'fastify';
import type { ClientKey } from '../http/auth.js';
import type { ChatCall } from './types.js';

export function callBasics(request: FastifyRequest, key: ClientKey, model: string) {
  return { requestId: request.id, key, clientIp: request.ip, headers: request.headers, model };
}

/** What a chat family decides about its call; the rest comes from the HTTP request. */
export type ChatCallFields = Omit<ChatCall, 'requestId' | 'key' | 'clientIp' | 'headers'>;

/** What a call takes from the request it came in: an HTTP request, or the handshake of a WebSocket one turn of which it is. */
export type CallOrigin = Pick<FastifyRequest, 'id' | 'ip' | 'headers'>;

/**
 * A chat call, written out as one literal of one shape. Spreading the
 * request's fields into the family's would make V8 build an object with a
 * far larger backing store, on every request (bench/README.md).
 */
export function chatCall(request: CallOrigin, key: ClientKey, fields: ChatCallFields): ChatCall {
  return {
    requestId: request.id,
    key,
    clientIp: request.ip,
    headers: request.headers,
    model: fields.model,
    stream: fields.stream,
    rawBody: fields.rawBody,
    body: fields.body,
    toCore: fields.toCore,
    passThroughMethod: fields.passThroughMethod,
    passThroughRequest: fields.passThroughRequest,
    wrapPassThrough: fields.wrapPassThrough,
    startedAt: fields.startedAt,
    sessionKey: undefined,
    sessionHint: fields.sessionHint,
    sessionAlias: fields.sessionAlias,
  };
}
