/**
 * `truncation` against the per-model context windows of the config file: a
 * 400 with `disabled`, the oldest turns dropped with `auto`, also when the
 * turns come from a stored conversation.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  gw = await startGateway({
    config: {
      channels: [{ name: 'sim', type: 'simulator', models: ['*'] }],
      keys: [{ name: 'client', key: 'sk-truncation' }],
      contextWindows: { 'tiny-*': 120 },
    },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-truncation', maxRetries: 0 });
});
afterAll(async () => gw?.close());

const longTurns = Array.from({ length: 6 }, (_, i) => ({
  role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
  content: `turn ${i}: ${'many words of padding '.repeat(8)}`,
}));

describe('truncation', () => {
  it('refuses an input over the window when disabled (the default)', async () => {
    const failure = await client.responses.create({ model: 'tiny-model', input: longTurns }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('context_length_exceeded');
    expect((failure as Error).message).toContain('context window');
  });

  it('drops the oldest turns to fit when auto', async () => {
    const response = await client.responses.create({ model: 'tiny-model', input: [...longTurns, { role: 'user', content: 'final question' }], truncation: 'auto' });
    expect(response.status).toBe('completed');
    expect(response.truncation).toBe('auto');
    expect(response.usage!.input_tokens).toBeLessThanOrEqual(120);
    expect(response.output_text).toContain('final question');
  });

  it('applies to conversations rebuilt from the store', async () => {
    let previous: string | undefined;
    for (let i = 0; i < 4; i++) {
      const turn = await client.responses.create({
        model: 'tiny-model',
        input: `question ${i} ${'padding words '.repeat(6)}`,
        previous_response_id: previous,
        truncation: 'auto',
      });
      expect(turn.usage!.input_tokens).toBeLessThanOrEqual(120);
      previous = turn.id;
    }
    const failure = await client.responses.create({ model: 'tiny-model', input: 'and now?', previous_response_id: previous }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('leaves models without a known window alone', async () => {
    const response = await client.responses.create({ model: 'roomy-model', input: longTurns });
    expect(response.status).toBe('completed');
  });
});
