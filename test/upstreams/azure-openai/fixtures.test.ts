/** Azure OpenAI's documented example answer (test/fixtures/upstream/azure-openai/) replayed through the azure-openai adapter, on the dated route it documents. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { azureOpenAiAdapter } from '../../../src/upstreams/azure-openai/index.js';
import { UPSTREAM_FIXTURES_DIR } from '../support/fixtures.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { sendChat, testCall } from '../support/call.js';

interface Example {
  parameters: { 'api-version': string; body: { messages: Array<{ role: string; content: string }> } };
  responses: { 200: { body: { choices: Array<{ message: { content: string } }>; usage: { prompt_tokens: number; completion_tokens: number } } } };
}

const example = JSON.parse(readFileSync(`${UPSTREAM_FIXTURES_DIR}/azure-openai/chat_completions.json`, 'utf8')) as Example;
let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(example.responses[200].body) });
});
afterAll(() => upstream.close());

describe('the documented chat completions example', () => {
  it('is read into the answer and its usage, the request sent to the dated route of the deployment', async () => {
    const [system, user] = example.parameters.body.messages;
    const request: ChatRequest = { model: 'gpt-4o', system: system.content, messages: [{ role: 'user', content: [{ type: 'text', text: user.content }] }], stream: false };
    const call = testCall({ baseUrl: upstream.origin, type: 'azure-openai', upstreamModel: 'pirate-deployment', settings: { routes: 'dated', apiVersion: example.parameters['api-version'] } });
    const result = await sendChat(azureOpenAiAdapter as never, request, call);
    expect(upstream.requests.at(-1)!.url).toBe('/openai/deployments/pirate-deployment/chat/completions?api-version=2024-10-21');
    const sent = upstream.requests.at(-1)!.json<{ messages: Array<{ role: string; content: string | Array<{ text: string }> }> }>().messages;
    const text = (content: string | Array<{ text: string }>) => (typeof content === 'string' ? content : content.map((part) => part.text).join(''));
    expect(sent.map((message) => ({ role: message.role, content: text(message.content) }))).toEqual(example.parameters.body.messages);
    if (result.stream) throw new Error('expected a plain answer');
    const answer = example.responses[200].body;
    expect(result.response.content).toEqual([{ type: 'text', text: answer.choices[0].message.content }]);
    expect(result.response.finishReason).toBe('stop');
    expect(result.response.usage).toMatchObject({ inputTokens: answer.usage.prompt_tokens, outputTokens: answer.usage.completion_tokens });
  });
});
