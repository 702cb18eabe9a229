/**
 * A legacy Completions request as the internal chat request: one user turn,
 * the API's default length, the sampling fields mapped, what a chat upstream
 * cannot honour kept as features of the dialect (refused by name on
 * translated channels), everything else a hint. And the family's validation.
 */
import { describe, expect, it } from 'vitest';
import { completionsToCore } from '../../../src/families/completions/to-core.js';
import { parseCompletionsRequest } from '../../../src/families/completions/validate.js';

const toCore = (body: Record<string, unknown>) => completionsToCore(parseCompletionsRequest({ model: 'm', ...body }));

describe('completionsToCore', () => {
  it('makes the prompt one user turn, with max_tokens 16 unless given', () => {
    expect(toCore({ prompt: 'Once upon' })).toEqual({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'Once upon' }] }], stream: false, maxTokens: 16 });
    expect(toCore({ prompt: ['Once upon'], max_tokens: 100, stream: true }).maxTokens).toBe(100);
    expect(toCore({ prompt: ['Once upon'] }).messages[0].content).toEqual([{ type: 'text', text: 'Once upon' }]);
  });

  it('maps the sampling fields and the end user', () => {
    const core = toCore({
      prompt: 'x',
      temperature: 0.2,
      top_p: 0.9,
      stop: 'END',
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      user: 'u-1',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(core).toMatchObject({ temperature: 0.2, topP: 0.9, stopSequences: ['END'], seed: 7, presencePenalty: 0.5, frequencyPenalty: -0.5, user: 'u-1', stream: true });
    expect(core.hints).toBeUndefined();
    expect(core.features).toBeUndefined();
  });

  it('keeps what only a server of the dialect honours as features', () => {
    const core = toCore({ prompt: ['a', 'b'], echo: true, suffix: '!', logprobs: 0, best_of: 3, n: 2, logit_bias: { '1': 5 }, max_tokens: 0 });
    expect(core.features).toEqual({ completions: { prompt: 'several prompts', echo: true, suffix: '!', logprobs: 0, best_of: 3, n: 2, logit_bias: { '1': 5 }, max_tokens: 0 } });
    expect(core.maxTokens).toBeUndefined();
    expect(toCore({ prompt: [[1, 2]] }).features).toEqual({ completions: { prompt: 'token ids' } });
    expect(toCore({ prompt: [3, 4] }).features).toEqual({ completions: { prompt: 'token ids' } });
  });

  it('leaves out what cannot change the answer: echo false, an empty suffix, n and best_of of 1, an empty logit_bias', () => {
    expect(toCore({ prompt: 'x', echo: false, suffix: '', n: 1, best_of: 1, logit_bias: {} }).features).toBeUndefined();
  });

  it('names other fields as hints', () => {
    expect(toCore({ prompt: 'x', vendor_option: 1, metadata: { a: 'b' } }).hints).toEqual({ vendor_option: 1, metadata: { a: 'b' } });
  });
});

describe('parseCompletionsRequest', () => {
  it.each([
    [{ prompt: 'x', temperature: 2.5 }, 'temperature'],
    [{ prompt: 'x', logprobs: 6 }, 'logprobs'],
    [{ prompt: 'x', stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    [{ prompt: 'x', max_tokens: -1 }, 'max_tokens'],
    [{ prompt: 'x', n: 3, best_of: 2 }, 'best_of'],
    [{ prompt: 'x', best_of: 2, stream: true }, 'best_of'],
    [{ prompt: 'x', stream_options: { include_usage: true } }, 'stream_options'],
    [{ prompt: [] }, 'prompt'],
    [{ prompt: [[-1]] }, 'prompt[0][0]'],
    [{ prompt: { text: 'x' } }, 'prompt'],
    [{}, 'prompt'],
  ])('refuses %j naming %s', (body, param) => {
    expect(() => parseCompletionsRequest({ model: 'm', ...body })).toThrow(expect.objectContaining({ kind: 'invalid_request', param }));
  });

  it('refuses a body that is not an object', () => {
    expect(() => parseCompletionsRequest([])).toThrow('request body must be a JSON object');
  });
});
