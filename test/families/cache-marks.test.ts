/** What each client dialect says of its prompt cache, carried into the internal request. */
import { describe, expect, it } from 'vitest';
import { chatCompletionsToCore } from '../../src/families/chat-completions/to-core.js';
import { parseChatCompletionsRequest } from '../../src/families/chat-completions/validate.js';
import { messagesToCore } from '../../src/families/messages/to-core.js';
import { parseMessagesRequest } from '../../src/families/messages/validate.js';
import { responsesToCore } from '../../src/families/responses/to-core.js';
import { parseResponsesRequest } from '../../src/families/responses/validate.js';
import { currentItems } from '../../src/families/responses/conversation.js';
import { emptyHistory } from '../../src/families/responses/history.js';
import { inputAsItems } from '../../src/families/responses/items.js';

const ephemeral = { type: 'ephemeral' };

describe('Chat Completions', () => {
  const toCore = (body: Record<string, unknown>) => chatCompletionsToCore(parseChatCompletionsRequest({ model: 'm', ...body }));

  it("reads opencode's cache_control on messages and parts as marks at the end of those messages", () => {
    const core = toCore({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'sys', cache_control: ephemeral }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b', cache_control: { type: 'ephemeral', ttl: '1h' } },
          ],
        },
        { role: 'assistant', content: 'c', cache_control: ephemeral },
        { role: 'user', content: 'd' },
      ],
    });
    expect(core.cache).toEqual({ system: { ttl: '5m' } });
    expect(core.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b', cache: { ttl: '1h' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'c', cache: { ttl: '5m' } }] },
      { role: 'user', content: [{ type: 'text', text: 'd' }] },
    ]);
    expect(core.hints).toBeUndefined();
  });

  it('reads prompt_cache_key and prompt_cache_retention as the cache key and retention, not hints', () => {
    const core = toCore({ messages: [{ role: 'user', content: 'x' }], prompt_cache_key: 'k', prompt_cache_retention: '24h' });
    expect(core.cache).toEqual({ key: 'k', retention: '24h' });
    expect(core.hints).toBeUndefined();
  });

  it('a marked tool message marks its tool result', () => {
    const core = toCore({
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'out', cache_control: ephemeral }] },
      ],
    });
    expect(core.messages.at(-1)!.content[0]).toMatchObject({ type: 'tool_result', callId: 'c1', cache: { ttl: '5m' } });
  });
});

describe('Messages', () => {
  it('reads system, tool and block marks, with their lifetime', () => {
    const core = messagesToCore(
      parseMessagesRequest({
        model: 'm',
        max_tokens: 10,
        system: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b', cache_control: { type: 'ephemeral', ttl: '1h' } },
        ],
        tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: ephemeral }],
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: [{ type: 'text', text: 'r', cache_control: ephemeral }] }] }],
      }),
    );
    expect(core.cache).toEqual({ system: { ttl: '1h' }, tools: { ttl: '5m' } });
    expect(core.messages[0].content[0]).toMatchObject({ type: 'tool_result', cache: { ttl: '5m' } });
    expect(core.hints).toBeUndefined();
  });
});

describe('Responses', () => {
  it('reads prompt_cache_key and prompt_cache_retention', () => {
    const request = parseResponsesRequest({ model: 'm', input: 'hi', prompt_cache_key: 'session', prompt_cache_retention: '24h' });
    const core = responsesToCore(request, currentItems(inputAsItems(request.input), emptyHistory));
    expect(core.cache).toEqual({ key: 'session', retention: '24h' });
    expect(core.hints).toBeUndefined();
  });
});
