/**
 * The OpenAI Responses wire format, both ways: the parts an upstream's answer
 * the gateway reads (`Wire*`, `ResponsesUsage`: only the fields used are
 * typed, everything else passes by untouched), and the answer the gateway
 * writes to a client (the response object, its output items, its usage).
 * Items coming from a native upstream pass through as plain objects.
 */

export interface ResponsesUsage {
  input_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  output_tokens?: number | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

export interface WireContentPart {
  type: string;
  text?: string;
  refusal?: string;
  annotations?: unknown[];
}

export interface WireOutputItem {
  type: string;
  id?: string;
  status?: string;
  role?: string;
  content?: WireContentPart[];
  call_id?: string;
  name?: string;
  arguments?: string;
  summary?: Array<{ type: string; text: string }>;
  encrypted_content?: string | null;
  [key: string]: unknown;
}

export interface WireError {
  code?: string | null;
  message?: string;
  type?: string;
  param?: string | null;
}

export interface WireResponse {
  id?: string;
  object?: string;
  model?: string;
  status?: string;
  error?: WireError | null;
  incomplete_details?: { reason?: string } | null;
  output?: WireOutputItem[];
  usage?: ResponsesUsage | null;
}

/** One streamed event; the fields read depend on `type`. */
export interface WireEvent {
  type: string;
  sequence_number?: number;
  response?: WireResponse;
  output_index?: number;
  item?: WireOutputItem;
  item_id?: string;
  content_index?: number;
  summary_index?: number;
  part?: WireContentPart;
  delta?: string;
  text?: string;
  arguments?: string;
  refusal?: string;
  /** `error` events: the fields at the top level (the OpenAPI shape) or nested (what the service sends). */
  code?: string | null;
  message?: string;
  param?: string | null;
  error?: WireError;
}

export interface OutputTextContent {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

export interface RefusalContent {
  type: 'refusal';
  refusal: string;
}

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface MessageOutputItem {
  id: string;
  type: 'message';
  status: ItemStatus;
  role: 'assistant';
  content: Array<OutputTextContent | RefusalContent>;
}

export interface FunctionCallOutputItem {
  id: string;
  type: 'function_call';
  status: ItemStatus;
  call_id: string;
  /** Set when the function belongs to a `namespace` tool; `name` is then its name inside the namespace. */
  namespace?: string;
  name: string;
  arguments: string;
}

/** A call of a `custom` (freeform) tool: plain-text input instead of JSON arguments. */
export interface CustomToolCallOutputItem {
  id: string;
  type: 'custom_tool_call';
  status: ItemStatus;
  call_id: string;
  namespace?: string;
  name: string;
  input: string;
}

export interface ReasoningOutputItem {
  id: string;
  type: 'reasoning';
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string | null;
  status?: ItemStatus;
}

/** The compacted conversation: opaque state a later turn sends back in place of the turns it replaces. */
export interface CompactionOutputItem {
  id: string;
  type: 'compaction';
  encrypted_content: string;
}

export type OutputItem = MessageOutputItem | FunctionCallOutputItem | CustomToolCallOutputItem | ReasoningOutputItem | CompactionOutputItem;

export interface RenderedResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'incomplete';

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  background: boolean;
  completed_at: number | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: Array<OutputItem | Record<string, unknown>>;
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null };
  service_tier?: string;
  store: boolean;
  temperature: number;
  text: { format: Record<string, unknown>; verbosity?: string };
  tool_choice: unknown;
  tools: Array<Record<string, unknown>>;
  top_p: number;
  truncation: 'auto' | 'disabled';
  usage: RenderedResponsesUsage | null;
  user: string | null;
  metadata: Record<string, string>;
}
