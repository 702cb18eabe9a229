/**
 * The wire shapes of Amazon Bedrock's Converse API (`POST
 * /model/<id>/converse` and `/converse-stream`), as the protocol writes a
 * request and reads an answer. Converse has no client dialect: the gateway
 * writes these bodies itself (convert-request.ts) and reads answers
 * defensively (convert-response.ts, convert-stream.ts), so they are plain
 * types, not schemas a client body is checked against. Names and members
 * follow AWS's API reference (ContentBlock, SystemContentBlock, TokenUsage,
 * ConverseStreamOutput).
 */

export type ConverseRole = 'user' | 'assistant';

export interface CachePointBlock {
  cachePoint: { type: 'default' };
}

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
export type DocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

/** Bytes inline (base64 in JSON), or an object in Amazon S3. */
export type MediaSource = { bytes: string } | { s3Location: { uri: string } };

export interface ImageBlock {
  image: { format: ImageFormat; source: MediaSource };
}

export interface DocumentBlock {
  document: { format: DocumentFormat; name: string; source: MediaSource | { text: string } };
}

export interface ToolUseBlock {
  toolUse: { toolUseId: string; name: string; input: unknown };
}

export type ToolResultContent = { text: string } | { json: unknown } | ImageBlock | DocumentBlock;

export interface ToolResultBlock {
  toolResult: { toolUseId: string; content: ToolResultContent[]; status?: 'success' | 'error' };
}

export interface ReasoningBlock {
  reasoningContent: { reasoningText: { text: string; signature?: string } } | { redactedContent: string };
}

export type ContentBlock = { text: string } | ImageBlock | DocumentBlock | ToolUseBlock | ToolResultBlock | ReasoningBlock | CachePointBlock;

export interface ConverseMessage {
  role: ConverseRole;
  content: ContentBlock[];
}

export type SystemBlock = { text: string } | CachePointBlock;

export interface ToolSpec {
  toolSpec: { name: string; description?: string; inputSchema: { json: unknown }; strict?: boolean };
}

export type ToolChoice = { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

export interface InferenceConfig {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
}

/** Structured output (`outputConfig.textFormat`); the schema travels as a JSON string. */
export interface OutputConfig {
  textFormat: { type: 'json_schema'; structure: { jsonSchema: { schema: string; name?: string; description?: string } } };
}

export interface ConverseRequest {
  messages: ConverseMessage[];
  system?: SystemBlock[];
  inferenceConfig?: InferenceConfig;
  toolConfig?: { tools: Array<ToolSpec | CachePointBlock>; toolChoice?: ToolChoice };
  outputConfig?: OutputConfig;
  /** Model-specific fields (Claude's `thinking` and `top_k`, Nova's `reasoningConfig`, gpt-oss's `reasoning_effort`). */
  additionalModelRequestFields?: Record<string, unknown>;
  additionalModelResponseFieldPaths?: string[];
  performanceConfig?: { latency: 'standard' | 'optimized' };
  requestMetadata?: Record<string, string>;
}

export type ConverseStopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'guardrail_intervened'
  | 'content_filtered'
  | 'model_context_window_exceeded'
  | 'malformed_model_output'
  | 'malformed_tool_use';

/** `inputTokens` counts the prompt outside the cache; cache reads and writes are counted apart (all four make `totalTokens`). */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

export interface ConverseResponse {
  output?: { message?: { role?: string; content?: ContentBlock[] } };
  stopReason?: ConverseStopReason | string;
  usage?: TokenUsage;
  metrics?: { latencyMs?: number };
  additionalModelResponseFields?: Record<string, unknown>;
}

/** ConverseStream's events, each an event-stream message whose `:event-type` is its name (payloads may carry a `p` padding field). */
export interface ConverseStreamEvents {
  messageStart: { role: string };
  contentBlockStart: { contentBlockIndex: number; start?: { toolUse?: { toolUseId: string; name: string } } };
  contentBlockDelta: {
    contentBlockIndex: number;
    delta: { text?: string; toolUse?: { input: string }; reasoningContent?: { text?: string; signature?: string; redactedContent?: string } };
  };
  contentBlockStop: { contentBlockIndex: number };
  messageStop: { stopReason: string; additionalModelResponseFields?: Record<string, unknown> };
  metadata: { usage?: TokenUsage; metrics?: { latencyMs?: number } };
}
