/**
 * What each family's counting endpoint accepts (its generate validation
 * without the generation-only requirements) and how it answers a count the
 * gateway made itself.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import { generateCountCodec, parseGenerateCountRequest } from '../../src/families/generate/count-tokens.js';
import { messagesCountCodec, parseMessagesCountRequest } from '../../src/families/messages/count-tokens.js';
import { parseResponsesCountRequest, responsesCountCodec } from '../../src/families/responses/count-tokens.js';

function refusal(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected a refusal');
}

const messages = [{ role: 'user', content: 'Hi' }];

describe('messages count_tokens', () => {
  it('needs no max_tokens, whatever the thinking budget', () => {
    expect(parseMessagesCountRequest({ model: 'm', messages }).messages).toHaveLength(1);
    expect(parseMessagesCountRequest({ model: 'm', messages, thinking: { type: 'enabled', budget_tokens: 31999 } }).thinking).toMatchObject({ budget_tokens: 31999 });
    expect(parseMessagesCountRequest({ model: 'm', messages, thinking: { type: 'adaptive' } }).thinking?.type).toBe('adaptive');
  });

  it('still applies the rules of a Messages request', () => {
    expect(refusal(() => parseMessagesCountRequest({ model: 'm' })).message).toContain('messages');
    expect(refusal(() => parseMessagesCountRequest({ model: 'm', messages, thinking: { type: 'enabled', budget_tokens: 10 } })).param).toBe('thinking.budget_tokens');
    // A max_tokens the client did send is checked as sent.
    expect(refusal(() => parseMessagesCountRequest({ model: 'm', messages, max_tokens: 0 })).param).toBe('max_tokens');
    expect(refusal(() => parseMessagesCountRequest([])).status).toBe(400);
  });

  it('answers {input_tokens}', () => {
    expect(messagesCountCodec.renderCount(12)).toEqual({ input_tokens: 12 });
    expect(messagesCountCodec.family).toBe('messages.count_tokens');
  });
});

describe('generate countTokens', () => {
  const contents = [{ role: 'user', parts: [{ text: 'Hi' }] }];

  it('reads {contents} or the generateContentRequest (either spelling), which wins over contents', () => {
    expect(parseGenerateCountRequest({ contents }).contents).toHaveLength(1);
    const inner = { model: 'models/x', contents: [{ role: 'user', parts: [{ text: 'inner' }] }], system_instruction: { parts: [{ text: 'sys' }] } };
    const parsed = parseGenerateCountRequest({ contents, generate_content_request: inner });
    expect(parsed.contents[0].parts[0].text).toBe('inner');
    expect(parsed.systemInstruction?.parts[0].text).toBe('sys');
    expect(parseGenerateCountRequest({ generateContentRequest: { contents } }).contents).toHaveLength(1);
  });

  it('refuses what :generateContent refuses', () => {
    expect(refusal(() => parseGenerateCountRequest({})).message).toContain('contents');
    expect(refusal(() => parseGenerateCountRequest({ generateContentRequest: [] })).param).toBe('generate_content_request');
    expect(refusal(() => parseGenerateCountRequest({ generateContentRequest: { contents: [] } })).message).toContain('contents');
  });

  it('answers totalTokens with the per-modality split, and a bare zero', () => {
    expect(generateCountCodec({}).renderCount(30)).toEqual({ totalTokens: 30, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 30 }] });
    expect(generateCountCodec({ AUDIO: 1 }).renderCount(100)).toEqual({
      totalTokens: 100,
      promptTokensDetails: [
        { modality: 'TEXT', tokenCount: 15 },
        { modality: 'AUDIO', tokenCount: 85 },
      ],
    });
    expect(generateCountCodec({}).renderCount(0)).toEqual({ totalTokens: 0 });
  });
});

describe('responses input_tokens', () => {
  it('takes a request without input', () => {
    expect(parseResponsesCountRequest({ model: 'm', instructions: 'x' }).input).toEqual([]);
    expect(parseResponsesCountRequest({ model: 'm', input: 'Hi' }).input).toBe('Hi');
  });

  it('still validates what it is given', () => {
    expect(refusal(() => parseResponsesCountRequest({ input: 'Hi' })).param).toBe('model');
    expect(refusal(() => parseResponsesCountRequest({ model: 'm', input: 5 })).param).toBe('input');
  });

  it('answers {object: "response.input_tokens", input_tokens}', () => {
    expect(responsesCountCodec.renderCount(3)).toEqual({ object: 'response.input_tokens', input_tokens: 3 });
  });
});
