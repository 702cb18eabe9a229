/**
 * Where and how to call Amazon Bedrock Runtime by the Converse API, for
 * every model but Anthropic's (and for those too with `anthropicApi:
 * converse`): `POST <origin>/model/<model id>/converse` and
 * `/converse-stream`, at the same origin as InvokeModel (endpoint.ts),
 * signed last over the body as sent (signing.ts), Bedrock's error answers
 * read by errors.ts.
 */
import type { ConverseEndpoint } from '../protocols/converse/index.js';
import type { UpstreamCall } from '../types.js';
import { modelPath } from './endpoint.js';
import { throwBedrockStatus } from './errors.js';
import { bedrockSettingsOf, type BedrockSettings } from './settings.js';
import { authorizedHeaders } from './signing.js';

const JSON_TYPE = 'application/json';
const EVENT_STREAM = 'application/vnd.amazon.eventstream';

export const converseEndpoint: ConverseEndpoint<BedrockSettings> = {
  type: 'bedrock',
  settingsOf: bedrockSettingsOf,
  url: (call: UpstreamCall, stream: boolean) => `${modelPath(call)}${stream ? 'converse-stream' : 'converse'}`,
  // A fresh record per call: signing adds its headers to it.
  headers: (_call: UpstreamCall, stream: boolean) => ({ 'content-type': JSON_TYPE, accept: stream ? EVENT_STREAM : JSON_TYPE }),
  sign: authorizedHeaders,
  throwStatus: throwBedrockStatus,
};
