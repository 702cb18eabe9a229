/**
 * Sealed reasoning state: the token's form (standard base64, `swy1` prefix,
 * compact), opening with the right key only, and the transforms the pipeline
 * applies to translated answers (plain and streamed) and requests.
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatRequest } from '../../src/core/chat.js';
import { openRequestState, sealEvents, sealResponse } from '../../src/core/reasoning-seal.js';
import { isSealedReasoning, ReasoningSealer } from '../../src/core/reasoning-state.js';
import { SecretBox } from '../../src/storage/secrets.js';
import { emptyUsage } from '../../src/core/chat.js';

const sealer = new ReasoningSealer(Buffer.alloc(32, 9));
const other = new ReasoningSealer(Buffer.alloc(32, 8));

describe('ReasoningSealer', () => {
  it('seals into compact standard base64 that only the same key opens', () => {
    const token = sealer.seal({ origin: 'gemini', kind: 'call', value: 'CiQB' });
    expect(token).toMatch(/^swy1[A-Za-z0-9+/]+=*$/);
    expect(token.length).toBeLessThan(120);
    expect(isSealedReasoning(token)).toBe(true);
    expect(sealer.open(token)).toEqual({ origin: 'gemini', kind: 'call', value: 'CiQB' });
    expect(other.open(token)).toBeUndefined();
    const altered = token.slice(0, 30) + (token[30] === 'A' ? 'B' : 'A') + token.slice(31);
    expect(sealer.open(altered)).toBeUndefined();
    expect(sealer.open('EqQBCkYIBxgCKkDv')).toBeUndefined();
    expect(isSealedReasoning('gAAAAABo')).toBe(false);
  });

  it('derives its key from the secret box under its own label, one sealer per box', () => {
    const box = SecretBox.fromKey(Buffer.alloc(32, 1));
    expect(ReasoningSealer.of(box)).toBe(ReasoningSealer.of(box));
    const again = ReasoningSealer.of(SecretBox.fromKey(Buffer.alloc(32, 1)));
    expect(again.open(ReasoningSealer.of(box).seal({ origin: 'anthropic', kind: 'thinking', value: 's' }))?.value).toBe('s');
    expect(box.deriveKey('switchyard/reasoning-state/v1').equals(Buffer.alloc(32, 1))).toBe(false);
  });
});

describe('sealing translated answers', () => {
  it('seals signatures, redacted data and call signatures with their origin; text only when asked', () => {
    const sealed = sealResponse(
      {
        id: 'r',
        model: 'm',
        content: [
          { type: 'thinking', text: 'why', signature: 'sig' },
          { type: 'thinking', text: '', redactedData: 'red' },
          { type: 'tool_call', id: 'c', name: 'f', input: {}, signature: 'call-sig' },
          { type: 'text', text: 'ok' },
        ],
        finishReason: 'tool_use',
        usage: emptyUsage(),
      },
      sealer,
      { origin: 'anthropic', carryText: true },
    );
    const [thought, redacted, call, text] = sealed.content as any[];
    expect(sealer.open(thought.signature)).toEqual({ origin: 'anthropic', kind: 'thinking', value: 'sig', text: 'why' });
    expect(sealer.open(redacted.redactedData)).toEqual({ origin: 'anthropic', kind: 'redacted', value: 'red' });
    expect(sealer.open(call.signature)).toEqual({ origin: 'anthropic', kind: 'call', value: 'call-sig' });
    expect(text).toEqual({ type: 'text', text: 'ok' });
  });

  it('holds a streamed signature and seals it whole at the end of its block', async () => {
    const events: ChatEvent[] = [
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, text: 'a' },
      { type: 'signature_delta', index: 0, signature: 'si' },
      { type: 'signature_delta', index: 0, signature: 'g' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'redacted_thinking', data: 'red' } },
      { type: 'block_stop', index: 1 },
      { type: 'finish', reason: 'stop', usage: emptyUsage() },
    ];
    const out: ChatEvent[] = [];
    for await (const event of sealEvents(events, sealer, { origin: 'gemini', carryText: false })) out.push(event);
    expect(out.map((event) => event.type)).toEqual(['block_start', 'thinking_delta', 'signature_delta', 'block_stop', 'block_start', 'block_stop', 'finish']);
    expect(sealer.open((out[2] as { signature: string }).signature)).toEqual({ origin: 'gemini', kind: 'thinking', value: 'sig' });
    expect(sealer.open((out[4] as { block: { data: string } }).block.data)).toEqual({ origin: 'gemini', kind: 'redacted', value: 'red' });
  });
});

describe('opening a translated request', () => {
  const request = (content: ChatRequest['messages'][number]['content']): ChatRequest => ({
    model: 'm',
    stream: false,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content },
    ],
  });

  it('restores the original values, the carried text and the origin', () => {
    const thought = sealer.seal({ origin: 'anthropic', kind: 'thinking', value: 'sig', text: 'the thought' });
    const redacted = sealer.seal({ origin: 'anthropic', kind: 'redacted', value: 'red' });
    const call = sealer.seal({ origin: 'gemini', kind: 'call', value: 'CiQB' });
    const opened = openRequestState(
      request([
        { type: 'thinking', text: '', signature: thought },
        { type: 'thinking', text: '', signature: redacted },
        { type: 'tool_call', id: 'c', name: 'f', input: {}, signature: call },
      ]),
      sealer,
    );
    expect(opened.messages[1].content).toEqual([
      { type: 'thinking', text: 'the thought', signature: 'sig', origin: 'anthropic' },
      { type: 'thinking', text: '', redactedData: 'red', origin: 'anthropic' },
      { type: 'tool_call', id: 'c', name: 'f', input: {}, signature: 'CiQB', origin: 'gemini' },
    ]);
  });

  it('drops state sealed with another key, and leaves vendor values and plain requests alone', () => {
    const foreign = other.seal({ origin: 'gemini', kind: 'thinking', value: 'CiQB' });
    const opened = openRequestState(
      request([
        { type: 'thinking', text: 'kept', signature: foreign },
        { type: 'thinking', text: '', signature: 'EqQB' },
      ]),
      sealer,
    );
    expect(opened.messages[1].content).toEqual([
      { type: 'thinking', text: 'kept' },
      { type: 'thinking', text: '', signature: 'EqQB' },
    ]);
    const plain = request([{ type: 'text', text: 'a' }]);
    expect(openRequestState(plain, sealer)).toBe(plain);
  });
});
