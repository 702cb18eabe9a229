/**
 * A function call's thought signature that does not come on the call's part:
 * Google documents that a streamed signature may come in a later chunk on an
 * empty text part, and a Vertex call streamed in `partialArgs` pieces may
 * carry it on a later piece. It is kept (even when the client asked for no
 * thinking) as a signed empty thought after the call, and goes back on the
 * turn's first call, the only one Gemini signs.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { fromGeminiResponse } from '../../../src/upstreams/protocols/generate/convert-response.js';
import { geminiSseToEvents } from '../../../src/upstreams/protocols/generate/convert-stream.js';
import { toGeminiRequest } from '../../../src/upstreams/protocols/generate/convert-request.js';
import { collect, foldEvents } from '../support/fold-events.js';

const SIG = 'Q2lRQmp6MXJYMmxoZEdV';
const opts = { keepTextSignatures: false };
const candidate = (parts: unknown[], finishReason?: string) => ({ candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }] });

async function streamed(chunks: unknown[]) {
  const body = (async function* () {
    for (const chunk of chunks) yield new TextEncoder().encode(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  })();
  return foldEvents(await collect(geminiSseToEvents(body, opts))).content;
}

const kinds = (content: Array<{ type: string; signature?: string }>) => content.map((part) => (part.type === 'thinking' ? `thinking:${part.signature}` : part.type));

describe('reading a late signature', () => {
  it('plain: the empty text part after a call keeps its signature, without thinking asked', () => {
    const answer = candidate([{ text: 'Checking.' }, { functionCall: { name: 'w', args: {} } }, { text: '', thoughtSignature: SIG }], 'STOP');
    expect(kinds(fromGeminiResponse(answer as never, 'm', opts).content)).toEqual(['text', 'tool_call', `thinking:${SIG}`]);
    // Before any call, an empty text part's signature is the text's, kept only when thinking was asked.
    expect(kinds(fromGeminiResponse(candidate([{ text: '', thoughtSignature: SIG }], 'STOP') as never, 'm', opts).content)).toEqual([]);
  });

  it('streamed: in a later chunk on an empty text part', async () => {
    const content = await streamed([candidate([{ functionCall: { name: 'w', args: { a: 1 } } }]), candidate([{ text: '', thoughtSignature: SIG }], 'STOP')]);
    expect(kinds(content)).toEqual(['tool_call', `thinking:${SIG}`]);
  });

  it('streamed: on an argument piece of a partialArgs call, after the call is complete', async () => {
    const content = await streamed([
      candidate([{ functionCall: { name: 'w', willContinue: true } }]),
      candidate([{ functionCall: { partialArgs: [{ jsonPath: '$.city', stringValue: 'Paris' }], willContinue: true }, thoughtSignature: SIG }]),
      candidate([{ functionCall: {} }]),
      candidate([{ text: '' }], 'STOP'),
    ]);
    expect(kinds(content)).toEqual(['tool_call', `thinking:${SIG}`]);
    expect(content[0]).toMatchObject({ type: 'tool_call', input: { city: 'Paris' } });
  });
});

describe('sending it back', () => {
  const replay = (content: ChatRequest['messages'][number]['content']) =>
    (
      toGeminiRequest(
        {
          model: 'm',
          stream: false,
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'go' }] },
            { role: 'assistant', content },
          ],
        },
        'gemini-3-pro-preview',
      ).contents as any
    )[1].parts;
  const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'w', input: {} });
  const late = { type: 'thinking' as const, text: '', signature: SIG, origin: 'gemini' };

  it('on the first call of the turn, whether it came after the last call or between parallel calls', () => {
    expect(replay([{ type: 'text', text: 'Checking.' }, call('a'), call('b'), late])).toEqual([
      { text: 'Checking.' },
      { functionCall: { id: 'a', name: 'w', args: {} }, thoughtSignature: SIG },
      { functionCall: { id: 'b', name: 'w', args: {} } },
    ]);
    expect(replay([call('a'), late, call('b')])).toEqual([{ functionCall: { id: 'a', name: 'w', args: {} }, thoughtSignature: SIG }, { functionCall: { id: 'b', name: 'w', args: {} } }]);
  });

  it('a signature before a call stays on that call; a trailing one with no call stays on an empty text part', () => {
    expect(replay([late, call('a'), call('b')])).toEqual([{ functionCall: { id: 'a', name: 'w', args: {} }, thoughtSignature: SIG }, { functionCall: { id: 'b', name: 'w', args: {} } }]);
    expect(replay([{ type: 'text', text: 'Hi.' }, late])).toEqual([{ text: 'Hi.' }, { text: '', thoughtSignature: SIG }]);
    // Two in a row after an unsigned call: the first goes on the call, the second on the part after it.
    const other = { ...late, signature: 'T1RIRVI=' };
    expect(replay([call('a'), late, other, { type: 'text', text: 'Done.' }])).toEqual([
      { functionCall: { id: 'a', name: 'w', args: {} }, thoughtSignature: SIG },
      { text: 'Done.', thoughtSignature: 'T1RIRVI=' },
    ]);
  });
});
