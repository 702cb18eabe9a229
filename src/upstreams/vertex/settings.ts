/**
 * The vertex channel's settings: the keys of the three protocols it speaks
 * (the content-generation protocol for Google's models, the Messages protocol
 * for Anthropic's, the Chat Completions protocol for the models of its
 * OpenAI-compatible endpoint, protocols/<dialect>/settings.ts), and where and how the type
 * addresses Vertex AI. The credential is the channel's key (`apiKeys`), never
 * a setting: a service-account JSON key or an access token, as `auth` says.
 */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import { chatCompletionsLooseWhenStored, chatCompletionsSettingsShape } from '../protocols/chat-completions/settings.js';
import { generateSettingsShape } from '../protocols/generate/settings.js';
import { messagesLooseWhenStored, messagesSettingsShape } from '../protocols/messages/settings.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';

const projectRule = 'must be a Google Cloud project id (6 to 30 lowercase letters, digits and hyphens) or project number';
const locationRule = 'must be a Vertex AI location such as us-central1, europe-west4, us, eu or global';

export const vertexSettingsShape = builtOnce(
  () =>
    ({
      ...generateSettingsShape(),
      ...messagesSettingsShape(),
      ...chatCompletionsSettingsShape(),
      project: z
        .string({ error: projectRule })
        .regex(/^([a-z][a-z0-9-]{4,28}[a-z0-9]|\d{1,20})$/, projectRule)
        .optional()
        .describe(
          'The Google Cloud project that calls the models (its id, e.g. `my-project`, or its number). Unset: the service-account key’s `project_id` (an access token names none: set it then).',
        ),
      location: z
        .string({ error: locationRule })
        .regex(/^(global|us|eu|[a-z]+-[a-z]+\d+)$/, locationRule)
        .default('global')
        .describe(
          'The Vertex AI location: `global` (host `aiplatform.googleapis.com`), a multi-region, `us` or `eu` (host `aiplatform.us.rep.googleapis.com`), or a region such as `us-east5` (host `us-east5-aiplatform.googleapis.com`).',
        ),
      endpoint: z
        .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://us-east5-aiplatform.googleapis.com' })
        .optional()
        .describe('The origin to call instead of the location’s public host (a Private Service Connect endpoint, a proxy). Unset: the channel’s base URL if it has one, else the location’s host.'),
      auth: z
        .enum(['service-account', 'access-token'])
        .default('service-account')
        .describe(
          'What the channel’s key is: `service-account`, a service-account JSON key (tokens are fetched from its `token_uri` with the cloud-platform scope, cached and refreshed); `access-token`, an OAuth access token sent as it is.',
        ),
    }) as const,
);

export const vertexSettings = typedChannelSettings('vertex', vertexSettingsShape, [...messagesLooseWhenStored, ...chatCompletionsLooseWhenStored]);

/** A vertex channel's settings as its schema outputs them, every default filled in. */
export type VertexSettings = TypedSettingsOf<typeof vertexSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const vertexSettingsOf = (channel: SettingsHolder): VertexSettings => vertexSettings.of(channel);
