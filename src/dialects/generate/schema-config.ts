/**
 * Zod schemas of `generationConfig` and `safetySettings`, to the spec's
 * limits. Rules between fields of the config are in validate-config.ts.
 */
import { z } from 'zod';
import {
  finiteNumber,
  harmBlockThresholds,
  harmCategories,
  mediaResolutions,
  protoEnum,
  protoInt,
  responseMimeTypes,
  responseModalities,
  speechLanguageCodes,
  thinkingLevels,
} from './schema-enums.js';
import { schemaObjectSchema } from './schema-tools.js';
import { builtOnce } from '../../core/built-once.js';

export const MAX_STOP_SEQUENCES = 5;

const voiceConfigSchema = builtOnce(() =>
  z.object({
    prebuiltVoiceConfig: z.object({ voiceName: z.string({ error: 'voice_name must be a string' }) }).optional(),
  }),
);

export const speechConfigSchema = builtOnce(() =>
  z
    .object({
      voiceConfig: voiceConfigSchema().optional(),
      multiSpeakerVoiceConfig: z
        .object({
          speakerVoiceConfigs: z.array(z.object({ speaker: z.string(), voiceConfig: voiceConfigSchema() })).min(1, {
            error: 'speaker_voice_configs must not be empty',
          }),
        })
        .optional(),
      languageCode: protoEnum(speechLanguageCodes).optional(),
    })
    .refine((config) => !(config.voiceConfig && config.multiSpeakerVoiceConfig), {
      error: 'voice_config and multi_speaker_voice_config are mutually exclusive',
    }),
);

export const thinkingConfigSchema = builtOnce(() =>
  z
    .object({
      includeThoughts: z.boolean({ error: 'must be a boolean' }).optional(),
      /** -1: the model decides; 0: no thinking; otherwise a token budget. */
      thinkingBudget: protoInt({ min: -1 }).optional(),
      thinkingLevel: protoEnum(thinkingLevels, { caseInsensitive: true }).optional(),
    })
    .refine((config) => config.thinkingBudget === undefined || config.thinkingLevel === undefined, {
      error: 'thinking_budget and thinking_level are mutually exclusive',
    }),
);

export const generationConfigSchema = builtOnce(() =>
  z.object({
    stopSequences: z
      .array(z.string({ error: 'stop sequences must be strings' }), { error: 'must be an array of strings' })
      .max(MAX_STOP_SEQUENCES, { error: `at most ${MAX_STOP_SEQUENCES} stop sequences are allowed` })
      .optional(),
    responseMimeType: protoEnum(responseMimeTypes).optional(),
    responseSchema: schemaObjectSchema().optional(),
    responseJsonSchema: z.unknown().optional(),
    responseModalities: z.array(protoEnum(responseModalities), { error: 'must be an array' }).optional(),
    candidateCount: protoInt({ min: 1, max: 8 }).optional(),
    maxOutputTokens: protoInt({ min: 1 }).optional(),
    temperature: finiteNumber().gte(0, { error: 'must be within [0.0, 2.0]' }).lte(2, { error: 'must be within [0.0, 2.0]' }).optional(),
    topP: finiteNumber().gte(0, { error: 'must be within [0.0, 1.0]' }).lte(1, { error: 'must be within [0.0, 1.0]' }).optional(),
    topK: protoInt({ min: 1 }).optional(),
    seed: protoInt().optional(),
    presencePenalty: finiteNumber().optional(),
    frequencyPenalty: finiteNumber().optional(),
    responseLogprobs: z.boolean({ error: 'must be a boolean' }).optional(),
    logprobs: protoInt({ min: 0, max: 20 }).optional(),
    enableEnhancedCivicAnswers: z.boolean({ error: 'must be a boolean' }).optional(),
    speechConfig: speechConfigSchema().optional(),
    thinkingConfig: thinkingConfigSchema().optional(),
    mediaResolution: protoEnum(mediaResolutions).optional(),
    imageConfig: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
    audioTimestamp: z.boolean({ error: 'must be a boolean' }).optional(),
  }),
);

export const safetySettingSchema = builtOnce(() =>
  z.object({
    category: protoEnum(harmCategories),
    threshold: protoEnum(harmBlockThresholds),
    method: z.enum(['HARM_BLOCK_METHOD_UNSPECIFIED', 'SEVERITY', 'PROBABILITY']).optional(),
  }),
);

export type GenerationConfig = z.output<ReturnType<typeof generationConfigSchema>>;
export type SafetySetting = z.output<ReturnType<typeof safetySettingSchema>>;
export type ThinkingConfigParam = z.output<ReturnType<typeof thinkingConfigSchema>>;
