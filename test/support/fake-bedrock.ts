/**
 * A loopback Amazon Bedrock Runtime that checks credentials the way AWS does:
 * every request's Signature Version 4 is recomputed from the request as it
 * arrived (sigv4-verify.mjs) with the secret of the access key it names, for
 * the fake's region and the `bedrock` service, within five minutes of now,
 * with the session token a temporary key needs; a Bedrock API key is a Bearer
 * token the fake issued. Refusals are Bedrock's: 403 with
 * `x-amzn-ErrorType: InvalidSignatureException` / `UnrecognizedClientException`
 * and `{"message": …}`.
 *
 * InvokeModel for Anthropic models (`/model/<id>/invoke`,
 * `/invoke-with-response-stream`, and CountTokens at `/count-tokens`), refusing what Bedrock refuses: a body
 * with `model` or `stream`, without `anthropic_version: "bedrock-2023-05-31"`,
 * or naming a beta outside the fake's list ("invalid beta flag"). Streams are
 * AWS event streams (`application/vnd.amazon.eventstream`) of `chunk` events,
 * each an Anthropic event in base64 `bytes`, encoded with the AWS SDK's own
 * codec (aws-event-frames.ts). The Converse routes are answered by
 * fake-bedrock-converse.ts, or by the `converse` handler a test passes in.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { frame, type StreamMessage } from './aws-event-frames.js';
import { claudeAnswer } from './claude-script.js';
import { handleConverse } from './fake-bedrock-converse.js';
import { sigv4Problem, type SigningSecret } from './sigv4-verify.mjs';

export interface BedrockRequest {
  url: string;
  headers: IncomingHttpHeaders;
  model: string;
  operation: string;
  body: Record<string, any>;
}

export { frame, type StreamMessage } from './aws-event-frames.js';

export type BedrockReply = { status: number; headers?: Record<string, string>; json: unknown } | { status: 200; events: StreamMessage[]; cutAfter?: number };

export type ConverseHandler = (model: string, body: Record<string, any>, stream: boolean) => BedrockReply;

export interface FakeBedrock {
  origin: string;
  region: string;
  /** `ACCESS_KEY_ID:SECRET_ACCESS_KEY`, trusted by the fake. */
  accessKey: string;
  /** `ACCESS_KEY_ID:SECRET_ACCESS_KEY:SESSION_TOKEN`, temporary credentials the fake trusts. */
  sessionKey: string;
  /** A key id the fake knows, with the wrong secret. */
  wrongSecretKey: string;
  /** A Bedrock API key (Bearer). */
  apiKey: string;
  requests: BedrockRequest[];
  /** Requests refused for their credentials, with why. */
  refusals: string[];
  /** Answers the next model requests with these replies, in order, instead of the built answers. */
  script(...replies: BedrockReply[]): void;
  close(): Promise<void>;
}

/** The betas the fake takes in `anthropic_beta` (Bedrock refuses others with "invalid beta flag"). */
export const FAKE_BEDROCK_BETAS = [
  'context-1m-2025-08-07',
  'interleaved-thinking-2025-05-14',
  'fine-grained-tool-streaming-2025-05-14',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'mid-conversation-tool-changes-2026-07-01',
];

/** The Converse answers of fake-bedrock-converse.ts, as this fake sends them. */
export const scriptedConverse: ConverseHandler = (model, body, stream) => {
  const reply = handleConverse(body, stream, model);
  if ('events' in reply) return { status: 200, events: reply.events.map((event) => ({ type: event.type, payload: event.payload, exception: event.messageType === 'exception' })) };
  return reply.errorType ? { ...bedrockError(reply.status, reply.errorType, ''), json: reply.json } : { status: reply.status, json: reply.json };
};

export async function startFakeBedrock(options: { region?: string; converse?: ConverseHandler } = {}): Promise<FakeBedrock> {
  const region = options.region ?? 'us-west-2';
  const secrets = new Map<string, SigningSecret>([
    ['AKIDSWITCHYARDTEST', { secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYSWITCHYARD' }],
    ['ASIASWITCHYARDTEMP', { secretAccessKey: 'c2Vzc2lvbi1zZWNyZXQtZm9yLXRlc3Rz/Temp+Key', sessionToken: 'IQoJb3JpZ2luX2VjEFAKE//session+token=' }],
  ]);
  const scripted: BedrockReply[] = [];
  const fake: FakeBedrock = {
    origin: '',
    region,
    accessKey: 'AKIDSWITCHYARDTEST:wJalrXUtnFEMI/K7MDENG+bPxRfiCYSWITCHYARD',
    sessionKey: 'ASIASWITCHYARDTEMP:c2Vzc2lvbi1zZWNyZXQtZm9yLXRlc3Rz/Temp+Key:IQoJb3JpZ2luX2VjEFAKE//session+token=',
    wrongSecretKey: 'AKIDSWITCHYARDTEST:not-the-secret-at-all',
    apiKey: 'ABSKQmVkcm9ja0FQSUtleS1zd2l0Y2h5YXJk',
    requests: [],
    refusals: [],
    script: (...replies) => scripted.push(...replies),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const reply = answer(req.method ?? 'GET', req.url ?? '/', req.headers, body);
      if ('events' in reply) {
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' });
        const frames = reply.events.map(frame);
        const sent = reply.cutAfter === undefined ? frames : frames.slice(0, reply.cutAfter);
        for (const bytes of sent) res.write(bytes);
        if (reply.cutAfter !== undefined) res.destroy();
        else res.end();
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json', 'x-amzn-requestid': 'fake-request-1', ...reply.headers });
      res.end(JSON.stringify(reply.json));
    });
  });

  function refuse(status: number, type: string, message: string): BedrockReply {
    fake.refusals.push(message);
    return bedrockError(status, type, message);
  }

  function answer(method: string, url: string, headers: IncomingHttpHeaders, raw: Buffer): BedrockReply {
    const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
    if (bearer !== undefined) {
      if (bearer !== fake.apiKey) return refuse(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    } else {
      const problem = sigv4Problem({ method, url, headers, body: raw }, secrets, { region, service: 'bedrock' });
      if (problem) return refuse(403, problem.includes('signature') ? 'InvalidSignatureException' : 'UnrecognizedClientException', problem);
    }
    const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream|count-tokens)$/.exec(url);
    if (!route || method !== 'POST') return bedrockError(404, 'UnknownOperationException', `No operation at ${url}`);
    const model = decodeURIComponent(route[1]!);
    const operation = route[2]!;
    let body: Record<string, any>;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return bedrockError(400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
    }
    fake.requests.push({ url, headers, model, operation, body });
    const next = scripted.shift();
    if (next) return next;
    if (operation === 'count-tokens') return countAnswer(model, body);
    if (operation === 'converse' || operation === 'converse-stream') {
      return (options.converse ?? scriptedConverse)(model, body, operation === 'converse-stream');
    }
    return invokeAnswer(model, operation === 'invoke-with-response-stream', body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

export function bedrockError(status: number, type: string, message: string): BedrockReply {
  return { status, headers: { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` }, json: { message } };
}

/** An Anthropic stream event as an InvokeModelWithResponseStream `chunk`. */
export function chunk(event: unknown): StreamMessage {
  return { type: 'chunk', payload: { bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: 'abcdefghij' } };
}

/** Input tokens the fake counts for any request it can count. */
export const FAKE_BEDROCK_COUNT = 19;

/**
 * CountTokens: the InvokeModel body, base64 in `input.invokeModel.body`,
 * checked as InvokeModel checks it; only bare Anthropic foundation model ids
 * are counted (inference profiles and other models are refused, as Bedrock does).
 */
function countAnswer(model: string, body: Record<string, any>): BedrockReply {
  const invalid = (message: string) => bedrockError(400, 'ValidationException', message);
  if (!/^anthropic\.claude/.test(model)) return invalid("The provided model doesn't support counting tokens.");
  const encoded = body.input?.invokeModel?.body;
  if (typeof encoded !== 'string') return invalid("1 validation error detected: Value null at 'input' failed to satisfy constraint: Member must not be null");
  let invoke: Record<string, any>;
  try {
    invoke = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    return invalid('Malformed input request, please reformat your input and try again.');
  }
  const checked = invokeAnswer(model, false, invoke);
  return checked.status === 200 ? { status: 200, json: { inputTokens: FAKE_BEDROCK_COUNT } } : checked;
}

function invokeAnswer(model: string, stream: boolean, body: Record<string, any>): BedrockReply {
  const invalid = (message: string) => bedrockError(400, 'ValidationException', message);
  if (body.anthropic_version !== 'bedrock-2023-05-31') return invalid('anthropic_version: Input should be bedrock-2023-05-31');
  if ('model' in body) return invalid('Malformed input request: #: extraneous key [model] is not permitted, please reformat your input and try again.');
  if ('stream' in body) return invalid('Malformed input request: #: extraneous key [stream] is not permitted, please reformat your input and try again.');
  if (body.anthropic_beta !== undefined && (!Array.isArray(body.anthropic_beta) || body.anthropic_beta.some((beta: unknown) => !FAKE_BEDROCK_BETAS.includes(beta as string))))
    return invalid('invalid beta flag');
  if (typeof body.max_tokens !== 'number' || !Array.isArray(body.messages)) return invalid('max_tokens and messages are required');
  const { message, events } = claudeAnswer(model, body, { greeting: 'Hello from Claude on Bedrock.', idTag: 'bdrk' });
  if (!stream) return { status: 200, json: message };
  const metrics = { inputTokenCount: 12, outputTokenCount: 6, invocationLatency: 420, firstByteLatency: 180 };
  return { status: 200, events: events.map((event) => chunk(event.type === 'message_stop' ? { ...event, 'amazon-bedrock-invocationMetrics': metrics } : event)) };
}
