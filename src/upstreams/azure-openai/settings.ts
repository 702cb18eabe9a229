/**
 * The azure-openai channel's settings: the Chat Completions and Responses
 * protocols' keys (a channel speaks both), and how the type reaches an Azure
 * OpenAI / Azure AI Foundry resource. The resource URL is the channel's
 * `baseUrl` (e.g. https://my-resource.openai.azure.com); deployment names
 * are the channel's `modelMapping`; the secret (an `api-key`, or the Entra ID
 * application's client secret) is the channel's key, never a setting.
 */
import { builtOnce } from '../../core/built-once.js';
import { z } from 'zod';
import { chatCompletionsLooseWhenStored, chatCompletionsSettingsShape } from '../protocols/chat-completions/settings.js';
import { responsesLooseWhenStored, responsesSettingsShape } from '../protocols/responses/settings.js';
import { typedChannelSettings, type SettingsHolder, type TypedSettingsOf } from '../typed-settings.js';

/** The token audience of Azure OpenAI and Azure AI Foundry. */
export const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

const guid = () => z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const azureOpenAiSettingsShape = builtOnce(
  () =>
    ({
      ...chatCompletionsSettingsShape(),
      ...responsesSettingsShape(),
      api: z
        .enum(['chat-completions', 'responses'])
        .default('chat-completions')
        .describe('The API a translated request (a Messages or content-generation client) is sent to. Chat Completions and Responses clients always reach the API they speak, untranslated.'),
      routes: z
        .enum(['v1', 'dated'])
        .default('v1')
        .describe(
          'The route style: `v1` (`/openai/v1/chat/completions`, `/openai/v1/responses`, no API version) or `dated` (`/openai/deployments/{deployment}/chat/completions?api-version=…`, `/openai/responses?api-version=…`).',
        ),
      apiVersion: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}(-preview)?$|^preview$/, 'must be an API version such as 2024-10-21 or 2025-04-01-preview')
        .default('2025-04-01-preview')
        .describe('The `api-version` query parameter of the `dated` routes (ignored by the `v1` routes).'),
      auth: z
        .enum(['api-key', 'entra-id'])
        .default('api-key')
        .describe(
          "How requests are authorised: `api-key` sends the channel's key as the `api-key` header; `entra-id` uses it as the client secret of a Microsoft Entra ID application and sends a Bearer token from the client-credentials grant.",
        ),
      tenantId: guid().optional().describe('The Entra ID tenant (directory) id; required for `entra-id` unless `tokenEndpoint` is given.'),
      clientId: guid().optional().describe('The Entra ID application (client) id; required for `entra-id`.'),
      tokenEndpoint: z
        .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
        .optional()
        .describe('The token endpoint of the client-credentials grant; default `https://login.microsoftonline.com/{tenantId}/oauth2/v2.0/token` (another cloud, a proxy).'),
      scope: z.string().min(1).default(COGNITIVE_SERVICES_SCOPE).describe('The scope the Entra ID token is asked for.'),
    }) as const,
);

export const azureOpenAiLooseWhenStored = [...chatCompletionsLooseWhenStored, ...responsesLooseWhenStored] as const;

export const azureOpenAiSettings = typedChannelSettings('azure-openai', azureOpenAiSettingsShape, azureOpenAiLooseWhenStored);

/** An azure-openai channel's settings as its schema outputs them, every default filled in. */
export type AzureOpenAiSettings = TypedSettingsOf<typeof azureOpenAiSettingsShape>;

/** A channel's settings, typed (see typed-settings.ts). */
export const azureOpenAiSettingsOf = (channel: SettingsHolder): AzureOpenAiSettings => azureOpenAiSettings.of(channel);
