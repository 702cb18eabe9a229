import { describe, expect, it } from 'vitest';
import { countRequestTokens, countTokens } from '../../../src/core/tokens.js';
import { FILLER_SENTENCES } from '../../../src/upstreams/simulator/filler.js';
import { simulatorAdapter } from '../../../src/upstreams/simulator/index.js';
import { makeCall, plain, textOf, userRequest } from './helpers.js';
import { planOf } from '../support/call.js';

describe('simulator adapter', () => {
  it('declares itself as a plain translating upstream', () => {
    expect(simulatorAdapter.type).toBe('simulator');
    expect(simulatorAdapter.nativeDialect).toBeUndefined();
    const plan = planOf(simulatorAdapter, { model: 'm', messages: [], stream: false, topK: 5, features: { generate: { logprobs: true } } }, { strict: false, settings: {} });
    expect(plan.decisions).toContainEqual({ field: 'top_k', treatment: 'hint', note: 'the simulator upstream has no top_k' });
    expect(plan.refusal?.message).toMatch(/logprobs is not supported/);
    expect(simulatorAdapter.passThrough).toBeUndefined();
  });
});

describe('simulator text answers', () => {
  it('echoes the last user message verbatim and pads it to at least 24 tokens', async () => {
    const response = await plain(userRequest('Hi'));
    const text = textOf(response);
    expect(text.startsWith('You said: "Hi".')).toBe(true);
    expect(countTokens(text)).toBeGreaterThanOrEqual(24);
    expect(response.finishReason).toBe('stop');
    expect(response.stopSequence).toBeNull();
    expect(FILLER_SENTENCES.some((sentence) => text.includes(sentence))).toBe(true);
  });

  it('answers the last user message, with its text parts joined', async () => {
    const response = await plain({
      model: 'm',
      stream: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'first question' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'an answer' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'line one' },
            { type: 'text', text: 'line two' },
          ],
        },
      ],
    });
    expect(textOf(response)).toContain('You said: "line one\nline two".');
    expect(textOf(response)).not.toContain('first question');
  });

  it('keeps unusual text verbatim', async () => {
    const odd = 'Ünïcødé 🙂 "quotes" <|endoftext|> and\nnewlines';
    expect(textOf(await plain(userRequest(odd)))).toContain(odd);
  });

  it('mentions attachments', async () => {
    const response = await plain({
      model: 'm',
      stream: false,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'media', mediaType: 'image/png', data: 'AAAA' },
          ],
        },
      ],
    });
    expect(textOf(response)).toContain('You attached 1 file (image/png).');
    expect(response.usage.inputTokens).toBe(countTokens('look') + 85);
  });

  it('is deterministic, with ids derived from the request', async () => {
    const a = await plain(userRequest('same question'));
    const b = await plain(userRequest('same question'));
    const c = await plain(userRequest('other question'));
    expect(b).toEqual(a);
    expect(a.id).toMatch(/^sim_[0-9a-f]{24}$/);
    expect(c.id).not.toBe(a.id);
  });

  it('echoes the upstream model name', async () => {
    const response = await plain(userRequest('hi'), makeCall({}, { upstreamModel: 'mapped-model' }));
    expect(response.model).toBe('mapped-model');
  });

  it('reports exact usage', async () => {
    const request = userRequest('How many tokens is this?', { system: 'You are terse.' });
    const response = await plain(request);
    expect(response.usage).toEqual({
      inputTokens: countRequestTokens(request),
      outputTokens: countTokens(textOf(response)),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });
});

describe('simulator limits', () => {
  it('cuts the reply at maxTokens with finish reason length', async () => {
    const response = await plain(userRequest('Tell me everything', { maxTokens: 5 }));
    const text = textOf(response);
    expect(response.finishReason).toBe('length');
    expect(countTokens(text)).toBeLessThanOrEqual(5);
    expect(response.usage.outputTokens).toBe(countTokens(text));
    const full = textOf(await plain(userRequest('Tell me everything')));
    expect(full.startsWith(text)).toBe(true);
  });

  it('does not report length when the reply fits', async () => {
    const response = await plain(userRequest('short', { maxTokens: 1000 }));
    expect(response.finishReason).toBe('stop');
  });

  it('stops before a stop sequence found in the filler and reports it', async () => {
    const response = await plain(userRequest('Hello', { stopSequences: ['zzz', ' the '] }));
    const text = textOf(response);
    expect(response.finishReason).toBe('stop_sequence');
    expect(response.stopSequence).toBe(' the ');
    expect(text).not.toContain(' the ');
    expect(text.startsWith('You said: "Hello".')).toBe(true);
    expect(response.usage.outputTokens).toBe(countTokens(text));
  });

  it('picks the earliest stop sequence', async () => {
    const response = await plain(userRequest('alpha beta gamma', { stopSequences: ['gamma', 'beta'] }));
    expect(response.stopSequence).toBe('beta');
    expect(textOf(response)).toBe('You said: "alpha ');
  });

  it('ignores stop sequences that do not occur', async () => {
    const response = await plain(userRequest('Hello', { stopSequences: ['@@@'] }));
    expect(response.finishReason).toBe('stop');
    expect(response.stopSequence).toBeNull();
  });
});

describe('simulator thinking', () => {
  it('thinks first, with a base64 signature, and counts the thought as output and reasoning', async () => {
    const response = await plain(userRequest('Why is the sky blue?', { thinking: { enabled: true, budgetTokens: 2048 } }));
    const [thinking, text] = response.content;
    if (thinking.type !== 'thinking' || text.type !== 'text') throw new Error('expected thinking then text');
    expect(thinking.text).toContain('Why is the sky blue?');
    expect(thinking.signature).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(thinking.signature ?? '', 'base64').length).toBe(32);
    const thoughtTokens = countTokens(thinking.text);
    expect(response.usage.reasoningTokens).toBe(thoughtTokens);
    expect(response.usage.outputTokens).toBe(thoughtTokens + countTokens(text.text));
  });

  it('shares maxTokens between thinking and text', async () => {
    const response = await plain(userRequest('Why?', { thinking: { enabled: true }, maxTokens: 8 }));
    expect(response.finishReason).toBe('length');
    expect(response.content.map((part) => part.type)).toEqual(['thinking']);
    expect(response.usage.outputTokens).toBeLessThanOrEqual(8);
  });

  it('cuts the thought at its own budget without ending the answer', async () => {
    const response = await plain(userRequest('Why?', { thinking: { enabled: true, budgetTokens: 3 } }));
    expect(response.usage.reasoningTokens).toBeLessThanOrEqual(3);
    expect(response.finishReason).toBe('stop');
    expect(textOf(response)).toContain('You said: "Why?".');
  });
});

describe('simulator structured output', () => {
  it('answers json_schema requests with JSON valid against the schema, using the user text', async () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' }, confidence: { type: 'number', minimum: 0, maximum: 1 }, tags: { type: 'array', items: { type: 'string' }, minItems: 2 } },
      required: ['answer', 'confidence', 'tags'],
      additionalProperties: false,
    };
    const response = await plain(userRequest('Is water wet?', { responseFormat: { type: 'json_schema', name: 'verdict', schema } }));
    const value = JSON.parse(textOf(response)) as { answer: string; confidence: number; tags: string[] };
    expect(value.answer).toBe('Is water wet?');
    expect(value.confidence).toBeGreaterThanOrEqual(0);
    expect(value.confidence).toBeLessThanOrEqual(1);
    expect(value.tags).toHaveLength(2);
    expect(Object.keys(value).sort()).toEqual(['answer', 'confidence', 'tags']);
  });

  it('answers json_object requests with a reply object', async () => {
    const response = await plain(userRequest('Hello JSON', { responseFormat: { type: 'json_object' } }));
    const value = JSON.parse(textOf(response)) as { reply: string };
    expect(value.reply).toContain('You said: "Hello JSON".');
  });

  it('refuses a schema it cannot satisfy, naming it', async () => {
    const request = userRequest('x', { responseFormat: { type: 'json_schema', schema: { $ref: 'https://example.com/s.json' } } });
    await expect(plain(request)).rejects.toMatchObject({ kind: 'unsupported_feature', param: 'response_format.schema' });
  });
});
