/**
 * Scripted fake of the Amazon Bedrock Runtime serving one Anthropic model
 * through InvokeModel, credentials checked as AWS checks them:
 *
 * - every request's Signature Version 4 is recomputed from the request as it
 *   arrived (test/support/sigv4-verify.mjs, the verifier the vitest fake
 *   uses) with the secret of the access key it names, for the fake's region
 *   and the `bedrock` service, within five minutes of now; refusals are
 *   AWS's 403 `InvalidSignatureException` / `UnrecognizedClientException`;
 * - `POST /model/<id>/invoke` (JSON) and `/invoke-with-response-stream`
 *   (an AWS event stream, `application/vnd.amazon.eventstream`: each
 *   Anthropic event a `chunk` event `{"bytes": base64(event JSON)}`, framed
 *   by the AWS SDK's own codec), only for the one model id it serves;
 * - the body as Bedrock takes it: no `model`, no `stream`,
 *   `anthropic_version: "bedrock-2023-05-31"`, betas only from the list
 *   Bedrock takes (another is a 400 "invalid beta flag"); every refusal is a
 *   400 `ValidationException` with Bedrock's `{"message": …}`.
 *
 * The answers are the anthropic fake's (`messagesAnswer`, see common.mjs for
 * the script). The channel it needs (`fake.channel`): the key
 * `ACCESS_KEY_ID:SECRET_ACCESS_KEY`, `region` and `endpoint` (this fake's
 * origin), every model the CLIs ask for mapped to the model id it serves.
 */
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import { sigv4Problem } from '../../support/sigv4-verify.mjs';
import { messageBody, messageEvents, messagesAnswer } from './anthropic.mjs';
import { runStandalone, startFakeServer, writeJson } from './common.mjs';

export const BEDROCK_REGION = 'us-west-2';
/** The one model served: a cross-region inference profile of a Claude model. */
export const BEDROCK_MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const ANTHROPIC_VERSION = 'bedrock-2023-05-31';
/** A throwaway key pair in AWS's shape (never a real account's). */
const ACCESS_KEY_ID = 'AKIDSWITCHYARDAGENTS';
const SECRET_ACCESS_KEY = 'agentsHarnessFakeSecret/K7MDENG+bPxRfiCYSY';
/**
 * The betas Bedrock takes for Claude models (its Claude documentation), the
 * same list as the vitest fake's (test/support/fake-bedrock.ts); it refuses a
 * body naming any other.
 */
export const BEDROCK_TAKES_BETAS = [
  'context-1m-2025-08-07',
  'interleaved-thinking-2025-05-14',
  'fine-grained-tool-streaming-2025-05-14',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'mid-conversation-tool-changes-2026-07-01',
];
const MODEL_ROUTE = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** An error as Bedrock answers it: the type in `x-amzn-ErrorType`, `{"message": …}` in the body. */
function bedrockError(res, status, type, message) {
  return writeJson(res, status, { message }, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'fake-agents-request' });
}

/** Why Bedrock would refuse this InvokeModel body, or null. */
function bodyRefusal(body) {
  if (!body || typeof body !== 'object') return 'Malformed input request, please reformat your input and try again.';
  if (body.anthropic_version !== ANTHROPIC_VERSION) return `anthropic_version: Input should be ${ANTHROPIC_VERSION}`;
  for (const key of ['model', 'stream']) {
    if (key in body) return `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`;
  }
  if (body.anthropic_beta !== undefined && (!Array.isArray(body.anthropic_beta) || body.anthropic_beta.some((beta) => !BEDROCK_TAKES_BETAS.includes(beta)))) return 'invalid beta flag';
  if (typeof body.max_tokens !== 'number' || !Array.isArray(body.messages)) return 'Malformed input request: #: required key [max_tokens, messages] not found';
  return null;
}

/** An Anthropic stream event as an InvokeModelWithResponseStream `chunk` event, framed. */
function chunkFrame(event) {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: 'abcdefgh' })),
  });
}

/** The answer's Anthropic events, the `message_stop` with the metrics Bedrock adds to it. */
function streamEvents(answer) {
  const metrics = { inputTokenCount: answer.inputTokens, outputTokenCount: answer.outputTokens, invocationLatency: 420, firstByteLatency: 180 };
  return messageEvents(answer).map(({ data }) => (data.type === 'message_stop' ? { ...data, 'amazon-bedrock-invocationMetrics': metrics } : data));
}

function writeEventStream(res, events) {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' });
  for (const event of events) res.write(chunkFrame(event));
  res.end();
}

export async function start({ port } = {}) {
  const secrets = new Map([[ACCESS_KEY_ID, { secretAccessKey: SECRET_ACCESS_KEY }]]);
  const fake = await startFakeServer({
    name: 'bedrock',
    port,
    async handle(req, res, { url, body, raw }) {
      const problem = sigv4Problem({ method: req.method, url: req.url, headers: req.headers, body: raw }, secrets, { region: BEDROCK_REGION, service: 'bedrock' });
      if (problem) return bedrockError(res, 403, problem.includes('signature') ? 'InvalidSignatureException' : 'UnrecognizedClientException', problem);
      const route = req.method === 'POST' ? MODEL_ROUTE.exec(url.pathname) : null;
      if (!route) return bedrockError(res, 404, 'UnknownOperationException', `No operation at ${url.pathname}`);
      if (decodeURIComponent(route[1]) !== BEDROCK_MODEL) return bedrockError(res, 400, 'ValidationException', 'The provided model identifier is invalid.');
      const refusal = bodyRefusal(body);
      if (refusal) return bedrockError(res, 400, 'ValidationException', refusal);
      const answer = messagesAnswer(body, BEDROCK_MODEL);
      if (route[2] === 'invoke') return writeJson(res, 200, messageBody(answer));
      return writeEventStream(res, streamEvents(answer));
    },
  });
  fake.channel = { apiKey: `${ACCESS_KEY_ID}:${SECRET_ACCESS_KEY}`, settings: { region: BEDROCK_REGION, endpoint: fake.origin }, upstreamModel: BEDROCK_MODEL };
  return fake;
}

await runStandalone(import.meta.url, start);
