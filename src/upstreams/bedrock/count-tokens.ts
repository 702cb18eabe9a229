/**
 * Counting for a Messages client of an Anthropic model on Bedrock, by
 * Bedrock Runtime's CountTokens: `POST <origin>/model/<model id>/count-tokens`
 * with `{"input":{"invokeModel":{"body":"<the InvokeModel body, base64>"}}}`
 * (a blob field, base64 on the wire), answered `{"inputTokens": N}`, which the
 * client gets as the Messages dialect's `{"input_tokens": N}`. The body is
 * the one InvokeModel would take (endpoint.ts's rules, betas in
 * `anthropic_beta`), with a `max_tokens` since InvokeModel requires one and a
 * count request has none; signed like every request.
 *
 * CountTokens takes foundation model ids, not inference profiles: a profile
 * named by its id (`us.anthropic.claude-…`) is counted for the model it names.
 * A model CountTokens does not serve (a ValidationException saying so) is
 * read as an upstream without counting, so the pipeline estimates instead.
 */
import { GatewayError } from '../../core/errors.js';
import { limitsOf } from '../../core/upstream-limits.js';
import { callExchange } from '../call-exchange.js';
import { nativeBody, whenHeaders, type RequestHeaders } from '../endpoint.js';
import type { CountTokensResult, PassThroughRequest, UpstreamCall } from '../types.js';
import { requestJsonOk } from '../whole-answer.js';
import { bedrockMessagesEndpoint, modelPath } from './endpoint.js';
import { throwBedrockStatus } from './errors.js';
import { bedrockSettingsOf } from './settings.js';
import { authorizedHeaders } from './signing.js';

/** A geographic or global inference profile id: the foundation model id after its prefix. */
const PROFILE_PREFIX = /^(us|eu|apac|jp|au|ca|us-gov|global)\.(?=anthropic\.)/;

export function bedrockCountTokens(request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> {
  return whenHeaders(bedrockMessagesEndpoint.headers(call, 'translated'), send, request, call, undefined);
}

async function send(headers: RequestHeaders, request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> {
  const invokeBody = JSON.parse(nativeBody(bedrockMessagesEndpoint, request, call, 'count-tokens', headers).toString()) as Record<string, unknown>;
  if (invokeBody.max_tokens === undefined) invokeBody.max_tokens = bedrockSettingsOf(call.channel).defaultMaxTokens;
  const body = JSON.stringify({ input: { invokeModel: { body: Buffer.from(JSON.stringify(invokeBody)).toString('base64') } } });
  headers.accept = 'application/json';
  const url = `${modelPath(call, call.upstreamModel.replace(PROFILE_PREFIX, ''))}count-tokens`;
  const signed = await authorizedHeaders(call, url, headers, body);
  let answer: { inputTokens?: unknown };
  try {
    answer = await requestJsonOk<{ inputTokens?: unknown }>(callExchange(call, url, signed, body, throwBedrockStatus), limitsOf(call).maxBodyBytes);
  } catch (error) {
    throw countingUnserved(error) ? new GatewayError('upstream_error', `Bedrock counts no tokens for ${call.upstreamModel}`, { upstreamStatus: 404 }) : error;
  }
  const inputTokens = answer.inputTokens;
  if (typeof inputTokens !== 'number' || !Number.isInteger(inputTokens) || inputTokens < 0)
    throw new GatewayError('upstream_error', 'upstream answered the count without a token count', { retryable: true });
  return { status: 200, contentType: 'application/json', body: Buffer.from(`{"input_tokens":${inputTokens}}`), inputTokens };
}

/** Bedrock's refusal of a model it cannot count for ("The provided model doesn't support counting tokens"). */
function countingUnserved(error: unknown): boolean {
  return error instanceof GatewayError && error.upstreamStatus === 400 && /support counting tokens/i.test(error.message);
}
