/**
 * Zod schemas of a GenerateContentResponse: the plain answer and, the same
 * shape, each chunk of a stream. Both directions use them: the family writes
 * answers of these types and the gemini upstream reads them. Upstream answers
 * are not parsed with them on the way through (the readers make their own
 * checks as they go); tests parse recorded answers and the family's own with
 * them. Fields are optional where the service leaves them out (a blocked
 * prompt has no candidate, a stream's first chunks carry no usage counts, a
 * Vertex AI function call streams its arguments in pieces with no name).
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { blockReasons, codeLanguages, codeOutcomes, finishReasons, harmProbabilities, tokenModalities } from './schema-enums.js';
import { googleErrorSchema } from './schema-error.js';

const json = () => z.record(z.string(), z.unknown());
const count = () => z.int().optional();

/** One piece of a streamed argument (Vertex AI): the value at `jsonPath`, strings continued by the next piece of that path. */
export const partialArgSchema = builtOnce(() =>
  z.object({
    jsonPath: z.string(),
    stringValue: z.string().optional(),
    numberValue: z.number().optional(),
    boolValue: z.boolean().optional(),
    nullValue: z.unknown().optional(),
    willContinue: z.boolean().optional(),
  }),
);

/** A function call as the model makes it; a client sends it back in its history (schema-content.ts adds the request's rules). */
export const answerFunctionCallSchema = builtOnce(() =>
  z.object({
    id: z.string().optional(),
    name: z.string().optional(),
    args: json().optional(),
    /** Vertex AI streams arguments piece by piece. */
    partialArgs: z.array(partialArgSchema()).optional(),
    willContinue: z.boolean().optional(),
  }),
);

export const answerPartSchema = builtOnce(() =>
  z.object({
    text: z.string().optional(),
    thought: z.boolean().optional(),
    thoughtSignature: z.string().optional(),
    functionCall: answerFunctionCallSchema().optional(),
    inlineData: z.object({ mimeType: z.string(), data: z.string() }).optional(),
    fileData: z.object({ mimeType: z.string().optional(), fileUri: z.string() }).optional(),
    executableCode: z.object({ id: z.string().optional(), language: z.enum(codeLanguages), code: z.string() }).optional(),
    codeExecutionResult: z.object({ id: z.string().optional(), outcome: z.enum(codeOutcomes), output: z.string().optional() }).optional(),
    partMetadata: json().optional(),
  }),
);

export const safetyRatingSchema = builtOnce(() =>
  z.object({
    category: z.string(),
    probability: z.enum(harmProbabilities).optional(),
    blocked: z.boolean().optional(),
    // Vertex AI's scores.
    probabilityScore: z.number().optional(),
    severity: z.string().optional(),
    severityScore: z.number().optional(),
  }),
);

/** A cited source, its span in UTF-8 bytes of the candidate's text. */
export const citationSourceSchema = builtOnce(() =>
  z.object({
    startIndex: z.int().optional(),
    endIndex: z.int().optional(),
    uri: z.string().optional(),
    title: z.string().optional(),
    license: z.string().optional(),
  }),
);

export const candidateSchema = builtOnce(() =>
  z.object({
    content: z.object({ role: z.string().optional(), parts: z.array(answerPartSchema()).optional() }).optional(),
    finishReason: z.enum(finishReasons).optional(),
    finishMessage: z.string().optional(),
    safetyRatings: z.array(safetyRatingSchema()).optional(),
    citationMetadata: z.object({ citationSources: z.array(citationSourceSchema()) }).optional(),
    tokenCount: count(),
    groundingMetadata: json().optional(),
    urlContextMetadata: json().optional(),
    avgLogprobs: z.number().optional(),
    logprobsResult: json().optional(),
    index: count(),
  }),
);

export const modalityTokenCountSchema = builtOnce(() => z.object({ modality: z.enum(tokenModalities), tokenCount: count() }));

/**
 * Token counts. `promptTokenCount` includes the cached prompt tokens, the
 * tool-use prompt (e.g. search results) is counted apart, and thoughts are
 * counted apart from the candidates (usage.ts maps them to the gateway's usage).
 */
export const usageMetadataSchema = builtOnce(() =>
  z.object({
    promptTokenCount: count(),
    cachedContentTokenCount: count(),
    candidatesTokenCount: count(),
    toolUsePromptTokenCount: count(),
    thoughtsTokenCount: count(),
    totalTokenCount: count(),
    promptTokensDetails: z.array(modalityTokenCountSchema()).optional(),
    cacheTokensDetails: z.array(modalityTokenCountSchema()).optional(),
    candidatesTokensDetails: z.array(modalityTokenCountSchema()).optional(),
    toolUsePromptTokensDetails: z.array(modalityTokenCountSchema()).optional(),
    /** Vertex AI: ON_DEMAND or PROVISIONED_THROUGHPUT. */
    trafficType: z.string().optional(),
  }),
);

export const promptFeedbackSchema = builtOnce(() =>
  z.object({
    blockReason: z.enum(blockReasons).optional(),
    safetyRatings: z.array(safetyRatingSchema()).optional(),
  }),
);

export const generateContentResponseSchema = builtOnce(() =>
  z.object({
    candidates: z.array(candidateSchema()).optional(),
    promptFeedback: promptFeedbackSchema().optional(),
    usageMetadata: usageMetadataSchema().optional(),
    modelVersion: z.string().optional(),
    responseId: z.string().optional(),
    /** Vertex AI. */
    createTime: z.string().optional(),
    /** A failure reported inside a stream. */
    error: googleErrorSchema().optional(),
  }),
);

export type GeminiPartialArg = z.output<ReturnType<typeof partialArgSchema>>;
export type GeminiFunctionCall = z.output<ReturnType<typeof answerFunctionCallSchema>>;
export type GeminiPart = z.output<ReturnType<typeof answerPartSchema>>;
export type GeminiCitationSource = z.output<ReturnType<typeof citationSourceSchema>>;
export type GeminiCandidate = z.output<ReturnType<typeof candidateSchema>>;
export type GeminiModalityTokenCount = z.output<ReturnType<typeof modalityTokenCountSchema>>;
export type GeminiUsageMetadata = z.output<ReturnType<typeof usageMetadataSchema>>;
export type GeminiResponse = z.output<ReturnType<typeof generateContentResponseSchema>>;
