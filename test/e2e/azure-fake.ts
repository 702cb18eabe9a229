/**
 * A loopback Azure OpenAI resource and its Entra ID token endpoint, checking
 * credentials the way the services do: the resource takes a known `api-key`
 * or a Bearer token its token endpoint issued and that has not expired; the
 * token endpoint takes only the client-credentials grant for the right
 * tenant, client, secret and scope. Both route styles are served (`/openai/v1/…`
 * with the deployment as the body's model; `/openai/deployments/{name}/…` and
 * `/openai/responses` with an `api-version`); the image and audio routes are
 * azure-fake-media.ts. Chat Completions streams open
 * with Azure's `prompt_filter_results` chunk and carry `content_filter_results`.
 *
 * What it answers follows the prompt: `FILTER` → a 400 `content_filter`,
 * `THROTTLE` → a 429 with `retry-after`, `CUTOFF` → an answer the filter cut
 * (`finish_reason: content_filter`), tools and no tool result → a call of the
 * first tool, an image → a description; deployments named `o…` reason.
 */
import { randomUUID } from 'node:crypto';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { serveMedia } from './azure-fake-media.js';

export const AZURE_API_KEY = 'azure-key-0123456789abcdef';
export const TENANT_ID = '72f988bf-86f1-41af-91ab-2d7cd011db47';
export const CLIENT_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
export const CLIENT_SECRET = 'entra-secret-0123456789abcdef';
export const SCOPE = 'https://cognitiveservices.azure.com/.default';

export interface AzureFake {
  resource: FakeUpstream;
  login: FakeUpstream;
  /** Seconds each new token lives. */
  tokenLifetime: number;
  /** Token requests made, granted or not. */
  tokenRequests: number;
  /** Deployments the resource has. */
  deployments: Set<string>;
  close(): Promise<void>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): FakeReply => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const azureError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}): FakeReply => json(status, { error: { code, message, ...extra } });

export async function startAzureFake(deployments: string[]): Promise<AzureFake> {
  const issued = new Map<string, number>();
  const fake = { tokenLifetime: 3599, tokenRequests: 0, deployments: new Set(deployments) } as AzureFake;
  fake.login = await startFakeUpstream((request) => {
    fake.tokenRequests++;
    return issueToken(request, fake, issued);
  });
  fake.resource = await startFakeUpstream((request) => {
    const refused = checkCredential(request, issued);
    return refused ?? serve(request, fake);
  });
  fake.close = async () => {
    await Promise.all([fake.resource.close(), fake.login.close()]);
  };
  return fake;
}

function issueToken(request: RecordedRequest, fake: AzureFake, issued: Map<string, number>): FakeReply {
  const tenant = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(request.url)?.[1];
  const form = new URLSearchParams(request.body.toString('utf8'));
  if (request.method !== 'POST' || !String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
    return json(400, { error: 'invalid_request', error_description: 'AADSTS900144: The request body must contain the following parameter: grant_type.' });
  if (tenant !== TENANT_ID) return json(400, { error: 'invalid_request', error_description: `AADSTS90002: Tenant '${tenant}' not found.` });
  if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type', error_description: 'AADSTS70003: The app requested an unsupported grant type.' });
  if (form.get('client_id') !== CLIENT_ID) return json(400, { error: 'unauthorized_client', error_description: `AADSTS700016: Application with identifier '${form.get('client_id')}' was not found.` });
  if (form.get('client_secret') !== CLIENT_SECRET) return json(401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
  if (form.get('scope') !== SCOPE) return json(400, { error: 'invalid_scope', error_description: 'AADSTS70011: The provided value for the input parameter scope is not valid.' });
  const token = `eyJ0eXAiOiJKV1Qi.${randomUUID()}`;
  issued.set(token, Date.now() + fake.tokenLifetime * 1000);
  return json(200, { token_type: 'Bearer', expires_in: fake.tokenLifetime, ext_expires_in: fake.tokenLifetime, access_token: token });
}

function checkCredential(request: RecordedRequest, issued: Map<string, number>): FakeReply | undefined {
  const key = request.headers['api-key'];
  if (key !== undefined)
    return key === AZURE_API_KEY
      ? undefined
      : azureError(
          401,
          '401',
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
        );
  const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
  const expires = bearer === undefined ? undefined : issued.get(bearer);
  if (expires === undefined) return azureError(401, 'PermissionDenied', 'Principal does not have access to API/Operation.');
  if (Date.now() >= expires) return azureError(401, '401', 'Unauthorized. Access token has expired.');
  return undefined;
}

type Body = Record<string, any>;

function serve(request: RecordedRequest, fake: AzureFake): FakeReply {
  const url = new URL(request.url, 'http://fake');
  const dated = url.pathname.startsWith('/openai/deployments/') || url.pathname === '/openai/responses';
  if (dated && !url.searchParams.get('api-version')) return azureError(404, '404', 'Resource not found');
  const media = serveMedia(request, url, fake.deployments);
  if (media) return media;
  const body = request.json<Body>();
  const route = /^\/openai\/(?:v1\/|deployments\/([^/]+)\/)?(chat\/completions|responses|embeddings)$/.exec(url.pathname);
  if (!route || (url.pathname.startsWith('/openai/v1/') && url.searchParams.has('api-version'))) return azureError(404, '404', 'Resource not found');
  const deployment = route[1] !== undefined ? decodeURIComponent(route[1]) : String(body.model);
  if (!fake.deployments.has(deployment)) return azureError(404, 'DeploymentNotFound', 'The API deployment for this resource does not exist.');
  if (route[2] === 'embeddings') {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    return json(200, {
      object: 'list',
      model: deployment,
      data: inputs.map((_: unknown, index: number) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3] })),
      usage: { prompt_tokens: 5, total_tokens: 5 },
    });
  }
  const said = JSON.stringify(route[2] === 'responses' ? (body.input ?? '') : body.messages);
  if (said.includes('THROTTLE'))
    return {
      ...azureError(429, '429', 'Requests to the ChatCompletions_Create Operation have exceeded token rate limit of your current pricing tier. Please retry after 7 seconds.'),
      headers: { 'content-type': 'application/json', 'retry-after': '7', 'retry-after-ms': '7000' },
    };
  if (said.includes('FILTER'))
    return azureError(400, 'content_filter', "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.", {
      param: 'prompt',
      status: 400,
      innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { hate: { filtered: true, severity: 'high' } } },
    });
  const answer = answerFor(body, said, deployment, route[2] === 'responses');
  return route[2] === 'responses' ? responsesReply(body, answer, deployment) : chatReply(body, answer, deployment);
}

interface Answer {
  text?: string;
  call?: { name: string; arguments: string };
  reasoning?: string;
  filtered?: boolean;
}

function answerFor(body: Body, said: string, deployment: string, responses: boolean): Answer {
  const reasoning = deployment.startsWith('o') ? 'The user greets me; answer briefly.' : undefined;
  const toolResult = responses ? said.includes('function_call_output') : (body.messages as Body[]).some((message) => message.role === 'tool');
  const tools = (body.tools ?? []) as Body[];
  if (tools.length > 0 && !toolResult) return { call: { name: responses ? tools[0].name : tools[0].function.name, arguments: '{"city":"Paris"}' }, reasoning };
  if (toolResult) return { text: 'It is sunny in Paris.', reasoning };
  if (said.includes('image_url') || said.includes('input_image')) return { text: 'I see a red square.', reasoning };
  if (said.includes('CUTOFF')) return { text: 'Here is how to', filtered: true };
  return { text: 'Hello from Azure.', reasoning };
}

const filterResults = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};
const usageOf = (answer: Answer) => ({
  prompt_tokens: 2048,
  completion_tokens: 40,
  total_tokens: 2088,
  prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: answer.reasoning ? 12 : 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
});

function chatReply(body: Body, answer: Answer, deployment: string): FakeReply {
  const id = `chatcmpl-${randomUUID().slice(0, 12)}`;
  const model = `${deployment}-2024-11-20`;
  const finish = answer.filtered ? 'content_filter' : answer.call ? 'tool_calls' : 'stop';
  const toolCalls = answer.call ? [{ id: 'call_azure_1', type: 'function', function: answer.call }] : undefined;
  if (!body.stream) {
    return json(200, {
      id,
      object: 'chat.completion',
      created: 1732000000,
      model,
      prompt_filter_results: [{ prompt_index: 0, content_filter_results: filterResults }],
      choices: [
        {
          index: 0,
          finish_reason: finish,
          message: { role: 'assistant', content: answer.text ?? null, refusal: null, tool_calls: toolCalls },
          content_filter_results: answer.filtered ? {} : filterResults,
          logprobs: null,
        },
      ],
      usage: usageOf(answer),
      system_fingerprint: 'fp_azure',
    });
  }
  const chunk = (delta: Body, finishReason: string | null = null, extra: Body = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created: 1732000000,
    model,
    system_fingerprint: 'fp_azure',
    choices: [
      { index: 0, delta, finish_reason: finishReason, logprobs: null, content_filter_results: finishReason === 'content_filter' ? { hate: { filtered: true, severity: 'medium' } } : filterResults },
    ],
    ...extra,
  });
  const events: Body[] = [{ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: filterResults }] }];
  events.push({
    ...chunk({ role: 'assistant', content: '' }),
    choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, finish_reason: null, logprobs: null, content_filter_results: {} }],
  });
  if (answer.text) for (const piece of answer.text.match(/.{1,6}/g)!) events.push(chunk({ content: piece }));
  if (answer.call) {
    events.push(chunk({ tool_calls: [{ index: 0, id: 'call_azure_1', type: 'function', function: { name: answer.call.name, arguments: '' } }] }));
    events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: answer.call.arguments } }] }));
  }
  events.push(chunk({}, finish));
  if (body.stream_options?.include_usage) events.push({ id, object: 'chat.completion.chunk', created: 1732000000, model, choices: [], usage: usageOf(answer) });
  return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, chunks: [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), 'data: [DONE]\n\n'] };
}

function responsesReply(body: Body, answer: Answer, deployment: string): FakeReply {
  const id = `resp_${randomUUID().replaceAll('-', '')}`;
  const model = `${deployment}-2024-11-20`;
  const output: Body[] = [];
  if (answer.reasoning) output.push({ id: `rs_${id}`, type: 'reasoning', summary: [{ type: 'summary_text', text: answer.reasoning }] });
  if (answer.call) output.push({ id: `fc_${id}`, type: 'function_call', status: 'completed', call_id: 'call_azure_1', name: answer.call.name, arguments: answer.call.arguments });
  if (answer.text) output.push({ id: `msg_${id}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: answer.text, annotations: [] }] });
  const usage = { input_tokens: 2048, input_tokens_details: { cached_tokens: 1024 }, output_tokens: 40, output_tokens_details: { reasoning_tokens: answer.reasoning ? 12 : 0 }, total_tokens: 2088 };
  const response = (status: string, items: Body[], withUsage: boolean) => ({
    id,
    object: 'response',
    created_at: 1732000000,
    status,
    error: null,
    incomplete_details: answer.filtered && status !== 'in_progress' ? { reason: 'content_filter' } : null,
    model,
    output: items,
    parallel_tool_calls: true,
    tools: body.tools ?? [],
    usage: withUsage ? usage : null,
  });
  const last = answer.filtered ? 'incomplete' : 'completed';
  if (!body.stream) return json(200, response(last, output, true));
  const events: Body[] = [{ type: 'response.created', response: response('in_progress', [], false) }];
  output.forEach((item, index) => {
    if (item.type === 'message') {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress', content: [] } });
      events.push({ type: 'response.content_part.added', item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      for (const piece of answer.text!.match(/.{1,6}/g)!) events.push({ type: 'response.output_text.delta', item_id: item.id, output_index: index, content_index: 0, delta: piece });
      events.push({ type: 'response.output_text.done', item_id: item.id, output_index: index, content_index: 0, text: answer.text });
      events.push({ type: 'response.content_part.done', item_id: item.id, output_index: index, content_index: 0, part: item.content[0] });
    } else if (item.type === 'function_call') {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress', arguments: '' } });
      events.push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta: item.arguments });
      events.push({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: index, arguments: item.arguments });
    } else {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, summary: [] } });
      events.push({ type: 'response.reasoning_summary_part.added', item_id: item.id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } });
      events.push({ type: 'response.reasoning_summary_text.delta', item_id: item.id, output_index: index, summary_index: 0, delta: answer.reasoning });
      events.push({ type: 'response.reasoning_summary_text.done', item_id: item.id, output_index: index, summary_index: 0, text: answer.reasoning });
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({ type: `response.${last}`, response: response(last, output, true) });
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    chunks: events.map((event, index) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`),
  };
}
