/**
 * The wire types of the Responses dialect, inferred from its schemas
 * (schema.ts): the response object, its output items and usage, and the
 * stream events, as the family writes them; the reader's views of an
 * upstream's answer (`Wire*`, `ResponsesUsage`: every field optional), as
 * the openai-responses upstream reads them; and the request the family
 * validates and the body an upstream converter builds.
 */
export type {
  CompactionOutputItem,
  CustomToolCallOutputItem,
  FunctionCallOutputItem,
  HostedOutputItem,
  ItemStatus,
  MessageOutputItem,
  OutputItem,
  OutputTextContent,
  ReasoningOutputItem,
  RefusalContent,
  RenderedResponsesUsage,
  ResponseObject,
  ResponseStatus,
} from './schema-response.js';
export type { ResponsesStreamEvent, ResponsesStreamEventOf, ResponsesStreamEventType } from './schema-stream.js';
export type { ResponsesUsage, WireContentPart, WireError, WireEvent, WireOutputItem, WireResponse } from './schema-view.js';
export type { ResponsesRequest, ResponsesRequestBody } from './schema-request.js';
export type { OpenAIErrorBody, OpenAIErrorObject } from '../openai/schema-error.js';
