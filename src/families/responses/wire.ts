/**
 * The shapes of the Responses answer the gateway writes: the response object,
 * its output items and usage. Only what the gateway produces is typed; items
 * coming from a native upstream pass through as plain objects.
 */

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

export type OutputItem = MessageOutputItem | FunctionCallOutputItem | CustomToolCallOutputItem | ReasoningOutputItem;

export interface ResponsesUsage {
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
  usage: ResponsesUsage | null;
  user: string | null;
  metadata: Record<string, string>;
}
