/** The settings about speaking Bedrock's Converse API, which a provider of it includes in its type's schema, each documented where it is declared. */
import { builtOnce } from '../../../core/built-once.js';
import { z } from 'zod';
import { cacheBreakpointsSetting } from '../../prompt-cache-settings.js';
import { typedChannelSettings, type TypedSettingsOf } from '../../typed-settings.js';

/**
 * Where a translated request's thinking goes for the model (`additionalModelRequestFields`):
 * each model family on Converse takes its own field, and a model that takes
 * none answers without thinking.
 */
export const CONVERSE_REASONING = ['auto', 'thinking', 'reasoningConfig', 'reasoning_effort', 'none'] as const;
export type ConverseReasoning = (typeof CONVERSE_REASONING)[number];

export const converseSettingsShape = builtOnce(
  () =>
    ({
      cacheBreakpoints: cacheBreakpointsSetting(),
      converseMaxTokens: z
        .number()
        .int()
        .positive()
        .optional()
        .describe('`inferenceConfig.maxTokens` sent on Converse when the client gave none. Unset: none is sent, and the model’s own limit applies (Converse does not require one).'),
      converseReasoning: z
        .enum(CONVERSE_REASONING)
        .default('auto')
        .describe(
          'Where a client’s thinking request goes on Converse: `thinking` (Claude: `{type: "enabled", budget_tokens}`), `reasoningConfig` (Amazon Nova 2: `{type: "enabled", maxReasoningEffort}`), `reasoning_effort` (OpenAI gpt-oss and others taking an effort word), `none` (the model takes no setting: ignored). `auto`: by the model id (anthropic, amazon.nova-2, openai.gpt-oss), else `none`.',
        ),
    }) as const,
);

/** The protocol's settings as a provider's schema outputs them, every default filled in (a provider's settings extend them). */
export type ConverseSettings = TypedSettingsOf<typeof converseSettingsShape>;

/** The protocol's keys alone, for callers that build a body from a settings record with no channel type (tests, the docs' tables). */
export const converseSettings = typedChannelSettings('converse', converseSettingsShape);
