/**
 * Moderation as the gateway and its upstreams see it: the inputs to classify
 * and one result each, in OpenAI's own result shape (the family writes it
 * as it is).
 */

export type ModerationPart = { type: 'text'; text: string } | { type: 'image_url'; url: string };

export interface ModerationRequest {
  /** The model name as the client sent it (or the default), before channel model mapping. */
  model: string;
  /** One entry per result: a string input is one text part, an array of parts is one multimodal input. */
  inputs: ModerationPart[][];
}

export interface ModerationResult {
  flagged: boolean;
  categories: Record<string, boolean>;
  category_scores: Record<string, number>;
  category_applied_input_types: Record<string, Array<'text' | 'image'>>;
}

export interface ModerationResponse {
  results: ModerationResult[];
  /** Input tokens the upstream reported (OpenAI reports none: the gateway counts the text). */
  inputTokens?: number;
}

/** The categories of OpenAI's omni-moderation models, in the order its answers list them. */
export const MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

/** The categories an image is classified for (OpenAI's list); the others read text only. */
export const IMAGE_CATEGORIES: ReadonlySet<string> = new Set(['self-harm', 'self-harm/intent', 'self-harm/instructions', 'sexual', 'violence', 'violence/graphic']);
