/**
 * The bedrock channel's settings: the Messages protocol's keys (Anthropic
 * models through InvokeModel speak it), the Converse protocol's (every other
 * model), and where and how the type reaches
 * Amazon Bedrock Runtime. The credential is the channel's key, never a
 * setting: AWS access keys (`ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`
 * or the same as JSON, for Signature Version 4) or a Bedrock API key
 * (`auth: api-key`, sent as a Bearer token).
 */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import { converseSettingsShape } from '../protocols/converse/settings.js';
import { messagesLooseWhenStored, messagesSettingsShape } from '../protocols/messages/settings.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';

const regionRule = 'must be an AWS region such as us-east-1, eu-central-1 or ap-northeast-1';

export const bedrockSettingsShape = builtOnce(
  () =>
    ({
      ...messagesSettingsShape(),
      ...converseSettingsShape(),
      region: z
        .string({ error: regionRule })
        .regex(/^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d$/, regionRule)
        .default('us-east-1')
        .describe('The AWS region of the Bedrock Runtime endpoint (`https://bedrock-runtime.<region>.amazonaws.com`), which requests are signed for.'),
      endpoint: z
        .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://vpce-0abc.bedrock-runtime.us-east-1.vpce.amazonaws.com' })
        .optional()
        .describe(
          'The origin to call instead of the region’s public endpoint (a VPC interface endpoint, a proxy); requests are still signed for `region`. Unset: the channel’s base URL if it has one, else the region’s endpoint.',
        ),
      auth: z
        .enum(['sigv4', 'api-key'])
        .default('sigv4')
        .describe(
          'What the channel’s key is: `sigv4`, AWS access keys (`ACCESS_KEY_ID:SECRET_ACCESS_KEY`, with `:SESSION_TOKEN` for temporary ones, or JSON `{"accessKeyId","secretAccessKey","sessionToken"}`) that sign each request with Signature Version 4; `api-key`, a Bedrock API key sent as a Bearer token.',
        ),
      anthropicApi: z
        .enum(['invoke', 'converse'])
        .default('invoke')
        .describe(
          'How Anthropic models (`anthropic.claude…` ids, inference profiles such as `us.anthropic.claude…`) are called: `invoke`, InvokeModel in the Messages format, so Messages clients pass through with every Anthropic feature Bedrock takes; `converse`, the Converse API every other model uses.',
        ),
    }) as const,
);

export const bedrockSettings = typedChannelSettings('bedrock', bedrockSettingsShape, messagesLooseWhenStored);

/** A bedrock channel's settings as its schema outputs them, every default filled in. */
export type BedrockSettings = TypedSettingsOf<typeof bedrockSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const bedrockSettingsOf = (channel: SettingsHolder): BedrockSettings => bedrockSettings.of(channel);
