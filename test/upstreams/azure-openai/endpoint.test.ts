/** The azure-openai endpoints: the route of each operation in both styles, the credential header, and Azure's prompt filter chunk kept from every client. */
import { describe, expect, it } from 'vitest';
import { azureChatUrl, azureHeaders, azureResponsesUrl, isPromptFilterChunk, resourceRoot } from '../../../src/upstreams/azure-openai/endpoint.js';
import { chatSseToEvents } from '../../../src/upstreams/protocols/chat-completions/convert-stream.js';
import { withoutChunks } from '../../../src/upstreams/protocols/chat-completions/usage-tap.js';
import { azureChatEndpoint } from '../../../src/upstreams/azure-openai/endpoint.js';
import { testCall, TEST_API_KEY } from '../support/call.js';

const call = (settings: Record<string, unknown> = {}, baseUrl = 'https://res.openai.azure.com') => testCall({ baseUrl, settings, type: 'azure-openai', upstreamModel: 'my deployment' });

describe('azure-openai routes', () => {
  it('takes the resource URL with or without a trailing /openai or /openai/v1', () => {
    for (const url of ['https://res.openai.azure.com', 'https://res.openai.azure.com/', 'https://res.openai.azure.com/openai', 'https://res.openai.azure.com/openai/v1/']) {
      expect(resourceRoot(url)).toBe('https://res.openai.azure.com');
    }
  });

  it('uses the v1 routes by default, with no api-version', () => {
    expect(azureChatUrl(call(), 'chat')).toBe('https://res.openai.azure.com/openai/v1/chat/completions');
    expect(azureChatUrl(call(), 'embeddings')).toBe('https://res.openai.azure.com/openai/v1/embeddings');
    expect(azureResponsesUrl(call(), 'responses')).toBe('https://res.openai.azure.com/openai/v1/responses');
    expect(azureResponsesUrl(call(), 'input-tokens')).toBe('https://res.openai.azure.com/openai/v1/responses/input_tokens');
  });

  it('puts the deployment in the path of the dated routes, and the api-version in the query', () => {
    const dated = call({ routes: 'dated', apiVersion: '2024-10-21' }, 'https://res.cognitiveservices.azure.com/openai');
    expect(azureChatUrl(dated, 'chat')).toBe('https://res.cognitiveservices.azure.com/openai/deployments/my%20deployment/chat/completions?api-version=2024-10-21');
    expect(azureChatUrl(dated, 'embeddings')).toBe('https://res.cognitiveservices.azure.com/openai/deployments/my%20deployment/embeddings?api-version=2024-10-21');
    expect(azureResponsesUrl(dated, 'responses')).toBe('https://res.cognitiveservices.azure.com/openai/responses?api-version=2024-10-21');
  });

  it('sends the key as the api-key header, never as a Bearer credential', () => {
    expect(azureHeaders(call())).toEqual({ 'content-type': 'application/json', 'api-key': TEST_API_KEY });
  });
});

const promptFilter = { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] };
const chunk = (delta: object, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  model: 'gpt-4o',
  choices: [{ index: 0, delta, finish_reason: finish, content_filter_results: {} }],
});

async function* bytes(pieces: string[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield Buffer.from(piece);
}

const sse = (events: object[]) => [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), 'data: [DONE]\n\n'];

describe("Azure's prompt filter chunk", () => {
  it('is recognised by its empty id and the prompt filter results, and a completion chunk is not', () => {
    expect(isPromptFilterChunk(promptFilter as never)).toBe(true);
    expect(isPromptFilterChunk(chunk({ content: 'x' }) as never)).toBe(false);
  });

  it('is skipped by the translating reader: the answer starts with the completion id and model', async () => {
    const events = [];
    for await (const event of chatSseToEvents(bytes(sse([promptFilter, chunk({ content: 'Hi' }), chunk({}, 'stop')])), undefined, undefined, azureChatEndpoint.skippedChunks)) events.push(event);
    expect(events[0]).toEqual({ type: 'message_start', id: 'chatcmpl-1', model: 'gpt-4o' });
    expect(events.filter((event) => event.type === 'text_delta')).toHaveLength(1);
  });

  it('is kept from a pass-through client; every other byte goes on as it came', async () => {
    const skipped = azureChatEndpoint.skippedChunks!;
    const pieces = sse([promptFilter, chunk({ content: 'Hi' }), chunk({}, 'stop')]);
    const out: string[] = [];
    for await (const piece of withoutChunks(bytes([pieces[0] + pieces[1], pieces[2], pieces[3]]), [skipped.marker], skipped.skips)) out.push(Buffer.from(piece).toString());
    expect(out.join('')).toBe(pieces.slice(1).join(''));
  });
});
