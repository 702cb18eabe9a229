/**
 * The parts of the OpenAI chat-completions wire format this adapter reads,
 * including the common extensions of compatible servers (`reasoning_content`
 * from DeepSeek/Qwen, `reasoning` and `reasoning_details` from Groq/OpenRouter).
 */

export interface ChatCompletionUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek's own cache counter, used when prompt_tokens_details is absent. */
  prompt_cache_hit_tokens?: number | null;
}

export interface WireToolCall {
  index?: number;
  id?: string | null;
  type?: 'function';
  function?: { name?: string | null; arguments?: string | null };
}

export interface ChatCompletionMessage {
  role?: string;
  content?: string | null;
  refusal?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  /** OpenRouter's reasoning entries (text with signatures, encrypted state), to send back verbatim. */
  reasoning_details?: unknown[] | null;
  tool_calls?: WireToolCall[] | null;
  /** Legacy single function call. */
  function_call?: { name?: string; arguments?: string } | null;
}

export interface ChatCompletion {
  id?: string;
  model?: string;
  choices?: Array<{ index?: number; message?: ChatCompletionMessage; finish_reason?: string | null }>;
  usage?: ChatCompletionUsage | null;
}

export interface ChatCompletionChunk {
  id?: string;
  model?: string;
  choices?: Array<{ index?: number; delta?: ChatCompletionMessage; finish_reason?: string | null }>;
  usage?: ChatCompletionUsage | null;
  /** Some compatible servers report failures inside the stream. */
  error?: { message?: string; code?: number | string | null; type?: string } | string;
}
