/**
 * The parts of the OpenAI Responses wire format this adapter reads. Only the
 * fields used are typed; everything else passes by untouched or is ignored.
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
