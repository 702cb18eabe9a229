/** The settings about speaking the Messages dialect, which a provider of it includes in its type's schema, each documented where it is declared. */
import { builtOnce } from '../../../core/built-once.js';
import { z } from 'zod';
import { cacheBreakpointsSetting } from '../../prompt-cache-settings.js';
import { typedChannelSettings, type TypedSettingsOf } from '../../typed-settings.js';

const betaName = /^[A-Za-z0-9][A-Za-z0-9._-]*\*?$|^\*$/;
const betaListRule = "must be a list of beta names (letters, digits, '.', '_', '-'; a trailing '*' matches by prefix)";
const betaList = () =>
  z
    .array(z.string({ error: betaListRule }).regex(betaName, betaListRule), { error: betaListRule })
    .nullish()
    .transform((list) => list ?? undefined);

export const messagesSettingsShape = builtOnce(
  () =>
    ({
      betas: z
        .strictObject(
          { allow: betaList(), deny: betaList() },
          {
            error: (issue) =>
              issue.code === 'unrecognized_keys' ? `takes only \`allow\` and \`deny\`, not \`${String(issue.keys[0]).slice(0, 40)}\`` : 'must be an object with `allow` and/or `deny` lists',
          },
        )
        .nullish()
        .describe(
          'Which `anthropic-beta` values the upstream takes: `allow` keeps only the names listed, `deny` drops them (deny wins); a trailing `*` matches by prefix. Unset: the header goes as the client wrote it.',
        ),
      cacheBreakpoints: cacheBreakpointsSetting(),
      defaultMaxTokens: z.number().int().positive().default(4096).describe('`max_tokens` sent when the client gave none (Anthropic requires one).'),
      outputFormatField: z
        .enum(['output_config', 'output_format'])
        .default('output_config')
        .describe('Where structured output goes: `output_config` (the GA shape) or `output_format` (the older beta shape, with its beta header).'),
      adaptiveThinking: z.boolean({ error: 'must be true or false' }).default(false).describe('Send `thinking: {type: "adaptive"}` instead of a token budget (models that support it).'),
    }) as const,
);

/** Keys read before they were checked: a stored channel with a bad value keeps serving (the value is ignored as before). */
export const messagesLooseWhenStored = ['defaultMaxTokens', 'outputFormatField', 'adaptiveThinking'] as const;

/** The protocol's settings as a provider's schema outputs them, every default filled in (a provider's settings extend them). */
export type MessagesSettings = TypedSettingsOf<typeof messagesSettingsShape>;

/** The protocol's keys alone, for callers that build a body from a settings record with no channel type (tests, the docs' tables). */
export const messagesSettings = typedChannelSettings('messages', messagesSettingsShape, messagesLooseWhenStored);
