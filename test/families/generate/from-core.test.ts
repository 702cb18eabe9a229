import { describe, expect, it } from 'vitest';
import type { ChatResponse, Usage } from '../../../src/core/chat.js';
import { renderGenerateResponse, type RenderOptions } from '../../../src/families/generate/from-core.js';
import { unwrapThought } from '../../../src/families/generate/thought-token.js';
import { renderUsageMetadata } from '../../../src/dialects/generate/usage.js';

const usage: Usage = { inputTokens: 10, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 };
const shown: RenderOptions = { includeThoughts: true, enumOutput: false };
const hidden: RenderOptions = { includeThoughts: false, enumOutput: false };

function response(content: ChatResponse['content'], overrides: Partial<ChatResponse> = {}): ChatResponse {
  return { id: 'resp_1', model: 'upstream-model', content, finishReason: 'stop', usage, ...overrides };
}

describe('renderGenerateResponse', () => {
  it('renders one candidate with text, the client model as modelVersion and the response id', () => {
    expect(renderGenerateResponse(response([{ type: 'text', text: 'Hello' }]), 'client-model', hidden)).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: 10,
        candidatesTokenCount: 30,
        totalTokenCount: 40,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 10 }],
        candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: 30 }],
      },
      modelVersion: 'client-model',
      responseId: 'resp_1',
    });
  });

  it('renders function calls with their id; a tool-use finish is STOP', () => {
    const rendered = renderGenerateResponse(response([{ type: 'tool_call', id: 'call_1', name: 'f', input: { a: 1 } }], { finishReason: 'tool_use' }), 'm', hidden);
    expect(rendered.candidates![0]).toMatchObject({ content: { parts: [{ functionCall: { id: 'call_1', name: 'f', args: { a: 1 } } }] }, finishReason: 'STOP' });
  });

  it('shows thoughts as thought parts with the signature on the next part', () => {
    const rendered = renderGenerateResponse(
      response([
        { type: 'thinking', text: 'pondering', signature: 'sig' },
        { type: 'tool_call', id: 'c', name: 'f', input: {} },
      ]),
      'm',
      shown,
    );
    expect(rendered.candidates![0].content!.parts!).toEqual([
      { text: 'pondering', thought: true },
      { functionCall: { id: 'c', name: 'f', args: {} }, thoughtSignature: 'sig' },
    ]);
  });

  it('hides thoughts unless asked, carrying signed ones inside the next part’s signature', () => {
    const rendered = renderGenerateResponse(
      response([
        { type: 'thinking', text: 'secret', signature: 'sig' },
        { type: 'text', text: 'answer' },
      ]),
      'm',
      hidden,
    );
    const parts = rendered.candidates![0].content!.parts!;
    expect(parts).toHaveLength(1);
    expect(parts[0].text).toBe('answer');
    expect(unwrapThought(parts[0].thoughtSignature!)).toEqual({ type: 'thinking', text: 'secret', signature: 'sig' });
  });

  it('drops unsigned hidden thoughts and keeps a signature with nothing after it on an empty text part', () => {
    expect(
      renderGenerateResponse(
        response([
          { type: 'thinking', text: 'unsigned' },
          { type: 'text', text: 'a' },
        ]),
        'm',
        hidden,
      ).candidates![0].content!.parts!,
    ).toEqual([{ text: 'a' }]);
    expect(
      renderGenerateResponse(
        response([
          { type: 'text', text: 'a' },
          { type: 'thinking', text: '', signature: 's' },
        ]),
        'm',
        shown,
      ).candidates![0].content!.parts!,
    ).toEqual([{ text: 'a' }, { text: '', thoughtSignature: 's' }]);
  });

  it('carries redacted thinking inside a signature even when thoughts are shown', () => {
    const parts = renderGenerateResponse(
      response([
        { type: 'thinking', text: '', redactedData: 'blob' },
        { type: 'text', text: 'a' },
      ]),
      'm',
      shown,
    ).candidates![0].content!.parts!;
    expect(unwrapThought(parts[0].thoughtSignature!)).toEqual({ type: 'thinking', text: '', redactedData: 'blob' });
  });

  it('unwraps enum answers to the bare value', () => {
    const rendered = renderGenerateResponse(
      response([
        { type: 'text', text: '{"value":' },
        { type: 'text', text: '"flute"}' },
      ]),
      'm',
      { includeThoughts: false, enumOutput: true },
    );
    expect(rendered.candidates![0].content!.parts!).toEqual([{ text: 'flute' }]);
  });

  it('maps finish reasons', () => {
    const reason = (finishReason: ChatResponse['finishReason']) => renderGenerateResponse(response([{ type: 'text', text: 'x' }], { finishReason }), 'm', hidden).candidates![0].finishReason;
    expect(reason('length')).toBe('MAX_TOKENS');
    expect(reason('stop_sequence')).toBe('STOP');
    expect(reason('content_filter')).toBe('SAFETY');
    expect(reason('refusal')).toBe('SAFETY');
    expect(reason('other')).toBe('OTHER');
  });

  it('reports a filtered answer with nothing in it as a blocked prompt', () => {
    expect(renderGenerateResponse(response([], { finishReason: 'refusal' }), 'm', hidden)).toEqual({
      promptFeedback: { blockReason: 'SAFETY' },
      usageMetadata: expect.any(Object),
      modelVersion: 'm',
      responseId: 'resp_1',
    });
  });

  it('renders URL citations as citation sources over the cited text, in bytes', () => {
    const rendered = renderGenerateResponse(
      response([
        { type: 'text', text: 'héllo ' },
        { type: 'text', text: 'world', citations: [{ type: 'web_search_result_location', url: 'https://example.com', title: 'Ex' }, { type: 'char_location' }] },
      ]),
      'm',
      hidden,
    );
    expect(rendered.candidates![0].citationMetadata).toEqual({ citationSources: [{ startIndex: 7, endIndex: 12, uri: 'https://example.com' }] });
  });
});

describe('renderUsageMetadata', () => {
  it('adds cached tokens back into the prompt and takes thoughts out of the candidates', () => {
    expect(renderUsageMetadata({ inputTokens: 100, outputTokens: 50, cacheReadTokens: 40, cacheWriteTokens: 10, reasoningTokens: 20 }, { IMAGE: 1 })).toEqual({
      promptTokenCount: 150,
      cachedContentTokenCount: 40,
      candidatesTokenCount: 30,
      thoughtsTokenCount: 20,
      totalTokenCount: 200,
      promptTokensDetails: [
        { modality: 'TEXT', tokenCount: 65 },
        { modality: 'IMAGE', tokenCount: 85 },
      ],
      cacheTokensDetails: [{ modality: 'TEXT', tokenCount: 40 }],
      candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: 30 }],
    });
  });
});
