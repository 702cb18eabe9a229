/**
 * The parts of the Anthropic Messages wire format the gateway reads from an
 * upstream and writes to a client. Only the fields used are typed; everything
 * else passes by untouched or is ignored.
 */

export interface MessagesUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The cache writes by TTL; together they are `cache_creation_input_tokens`. */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

export type MessagesContentBlock =
  | { type: 'text'; text: string; citations?: unknown[] | null }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> | null }
  /** Server-side tool blocks (server_tool_use, web_search_tool_result, …). */
  | { type: string; [key: string]: unknown };

/**
 * The message object, both ways: an upstream's answer (read leniently: the
 * readers check each field) and the gateway's answer to a client.
 */
export interface MessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessagesContentBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: MessagesUsage;
}

export type MessagesDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'citations_delta'; citation: unknown };

export type MessagesStreamEvent =
  | { type: 'message_start'; message: Omit<MessagesResponse, 'usage'> & { usage?: MessagesUsage } }
  | { type: 'content_block_start'; index: number; content_block: MessagesContentBlock }
  | { type: 'content_block_delta'; index: number; delta: MessagesDelta }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason?: string | null; stop_sequence?: string | null }; usage?: MessagesUsage }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error?: { type?: string; message?: string } };
