/**
 * The parts of the Gemini `generateContent` wire format this adapter reads:
 * a GenerateContentResponse (also each chunk of a stream) and its error body.
 */

export interface GeminiPartialArg {
  jsonPath: string;
  stringValue?: string | null;
  numberValue?: number | null;
  boolValue?: boolean | null;
  nullValue?: unknown;
  willContinue?: boolean | null;
}

export interface GeminiFunctionCall {
  id?: string | null;
  name?: string | null;
  args?: Record<string, unknown> | null;
  /** Vertex AI streams arguments piece by piece. */
  partialArgs?: GeminiPartialArg[] | null;
  willContinue?: boolean | null;
}

export interface GeminiPart {
  text?: string | null;
  thought?: boolean | null;
  thoughtSignature?: string | null;
  functionCall?: GeminiFunctionCall | null;
  inlineData?: { mimeType?: string; data?: string } | null;
  executableCode?: { language?: string; code?: string } | null;
  codeExecutionResult?: { outcome?: string; output?: string | null } | null;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number | null;
  cachedContentTokenCount?: number | null;
  candidatesTokenCount?: number | null;
  toolUsePromptTokenCount?: number | null;
  thoughtsTokenCount?: number | null;
  totalTokenCount?: number | null;
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] | null } | null;
  finishReason?: string | null;
  index?: number | null;
}

export interface GeminiResponse {
  candidates?: GeminiCandidate[] | null;
  promptFeedback?: { blockReason?: string | null } | null;
  usageMetadata?: GeminiUsageMetadata | null;
  modelVersion?: string | null;
  responseId?: string | null;
  /** A failure reported inside a stream. */
  error?: GeminiError | null;
}

export interface GeminiError {
  code?: number | null;
  message?: string | null;
  status?: string | null;
  details?: unknown[] | null;
}
