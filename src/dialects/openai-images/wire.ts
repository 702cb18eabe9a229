/**
 * OpenAI image generation and editing (`/v1/images/generations`,
 * `/v1/images/edits`) as the gateway and its upstreams see it: what the
 * client asked (read once by the family), the body to pass to a server that
 * has the endpoint itself, and the images an upstream made.
 */

export type ImageOperationName = 'generations' | 'edits';

/** An uploaded file of an edit (`image`, `image[]`, `mask`). */
export interface ImageFile {
  field: string;
  bytes: Buffer;
  filename?: string;
  contentType?: string;
}

export interface ImageRequest {
  operation: ImageOperationName;
  /** The model name as the client sent it (or the default), before channel model mapping. */
  model: string;
  prompt: string;
  n: number;
  /** `<width>x<height>`, or `auto`, or absent (the model's default). */
  size?: string;
  /** Whether the client wants a URL or the bytes (gpt-image models always answer bytes). */
  responseFormat: 'url' | 'b64_json';
  outputFormat: 'png' | 'jpeg' | 'webp';
  /** The images to edit, in order (edits only). */
  images: ImageFile[];
  mask?: ImageFile;
  /** Partial images streamed as server-sent events (only servers with OpenAI's own endpoints stream them). */
  stream: boolean;
}

/** The client's body for a server that takes it as it is: JSON, or the multipart form re-encoded with the same parts. */
export interface ImageBody {
  /** The body naming `model` (the channel's upstream model), and its content type. */
  withModel(model: string): { contentType: string; bytes: Buffer };
}

/** One image an upstream made: its bytes, or a URL it serves it at. */
export interface MadeImage {
  bytes?: Buffer;
  url?: string;
  revisedPrompt?: string;
}

export interface ImageResponse {
  images: MadeImage[];
  /** Token usage where the upstream reports it (gpt-image models). */
  inputTokens?: number;
  outputTokens?: number;
}

/** A server's images answer kept byte for byte, with what billing reads of it. */
export interface ImagePassThroughResult {
  status: number;
  contentType: string;
  body: Buffer;
  images: number;
  inputTokens?: number;
  outputTokens?: number;
}

/** A server's stream of partial and completed images on its way to the client, and what billing reads of it once it ended. */
export interface ImageStreamResult {
  contentType: string;
  /** The stream's bytes, each chunk ending on a whole event; throws when the stream breaks or ends before its last image. */
  chunks: AsyncIterable<Uint8Array>;
  read(): { images: number; inputTokens?: number; outputTokens?: number };
}

/** OpenAI's answer: `{ created, data: [{ b64_json | url, revised_prompt? }], usage? }`. */
export interface ImagesAnswer {
  created: number;
  data: Array<{ b64_json?: string; url?: string; revised_prompt?: string }>;
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number };
}

/** Reads an answer's usage and images count (gpt-image models report tokens; others none). */
export function imagesAnswerUsage(answer: object): { images: number; inputTokens?: number; outputTokens?: number } {
  const data = (answer as { data?: unknown }).data;
  const usage = (answer as { usage?: { input_tokens?: unknown; output_tokens?: unknown } }).usage;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
  return {
    images: Array.isArray(data) ? data.length : 0,
    inputTokens: typeof usage === 'object' && usage !== null ? count(usage.input_tokens) : undefined,
    outputTokens: typeof usage === 'object' && usage !== null ? count(usage.output_tokens) : undefined,
  };
}

/** Whether a model answers bytes only (gpt-image models take no `response_format`). */
export const answersBytesOnly = (model: string): boolean => model.startsWith('gpt-image');
