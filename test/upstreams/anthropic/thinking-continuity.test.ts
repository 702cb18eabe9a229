/**
 * A tool loop whose last assistant turn lacks its signed thought is sent with
 * thinking off (Anthropic refuses it otherwise), and the plan says so; a loop
 * that carries the signed thought keeps thinking on.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat.js';
import { toMessagesRequest } from '../../../src/upstreams/protocols/messages/convert-request.js';
import { anthropicAdapter } from '../../../src/upstreams/anthropic/index.js';
import { planOf } from '../support/call.js';

const loop = (assistantFirst?: ChatMessage['content'][number]): ChatRequest => ({
  model: 'claude',
  stream: false,
  thinking: { enabled: true, effort: 'medium' },
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
    { role: 'assistant', content: [...(assistantFirst ? [assistantFirst] : []), { type: 'tool_call', id: 'toolu_1', name: 'get_weather', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', callId: 'toolu_1', content: [{ type: 'text', text: 'sunny' }] }] },
  ],
});

const plan = (request: ChatRequest) => planOf(anthropicAdapter, request, { strict: false, settings: {} });

describe('thinking continuity on anthropic', () => {
  it('turns thinking off when the last tool-calling turn has no signed thought, and says so', () => {
    const request = loop({ type: 'thinking', text: 'unsigned thought from another dialect' });
    expect(toMessagesRequest(request, 'claude').body.thinking).toBeUndefined();
    expect(
      plan(request)
        .decisions.filter((d) => d.treatment === 'mapped')
        .map((d) => d.field),
    ).toContain('thinking');
    expect(toMessagesRequest(loop(), 'claude').body.thinking).toBeUndefined();
  });

  it('keeps thinking on when the signed thought comes back, and on a first turn', () => {
    const signed = loop({ type: 'thinking', text: 't', signature: 'sig', origin: 'anthropic' });
    expect(toMessagesRequest(signed, 'claude').body.thinking).toMatchObject({ type: 'enabled' });
    expect(
      plan(signed)
        .decisions.filter((d) => d.treatment === 'mapped')
        .map((d) => d.field),
    ).not.toContain('thinking');
    const first: ChatRequest = { ...loop(), messages: [loop().messages[0]] };
    expect(toMessagesRequest(first, 'claude').body.thinking).toMatchObject({ type: 'enabled' });
  });
});
