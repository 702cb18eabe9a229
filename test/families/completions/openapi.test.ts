/**
 * The family's `text_completion` answers against the official OpenAPI
 * description's `CreateCompletionResponse` (test/fixtures/specs): the plain
 * answer and the stream's usage chunk. (The description types a choice's
 * `finish_reason` as never null, which the API's own stream chunks before the
 * last are, so those are checked by the dialect's schema instead:
 * test/dialects/completions/schema-response.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatResponse, Usage } from '../../../src/core/chat.js';
import { renderTextCompletion } from '../../../src/families/completions/from-core.js';
import { CompletionsStreamEncoder } from '../../../src/families/completions/stream-encoder.js';

const file = fileURLToPath(new URL('../../fixtures/specs/openai-openapi.yaml', import.meta.url));
const document = parse(readFileSync(file, 'utf8'), { maxAliasCount: -1 }) as { components: { schemas: Record<string, unknown> } };
const defs = JSON.parse(JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"openapi#/$defs/'));
const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addFormat('unixtime', true);
ajv.addSchema({ $id: 'openapi', $defs: defs });
const validate = ajv.getSchema('openapi#/$defs/CreateCompletionResponse')!;

function expectValid(value: unknown): void {
  const valid = validate(value);
  expect(validate.errors ?? null).toBeNull();
  expect(valid).toBe(true);
}

const usage: Usage = { inputTokens: 12, outputTokens: 30, cacheReadTokens: 4, cacheWriteTokens: 0 };

describe('CreateCompletionResponse', () => {
  it.each(['stop', 'length', 'content_filter', 'tool_use'] as const)('takes the plain answer finished by %s', (finishReason) => {
    const response: ChatResponse = { id: 'up_1', model: 'up', content: [{ type: 'text', text: 'It is sunny.' }], finishReason, usage };
    expectValid(renderTextCompletion(response, 'client-model'));
  });

  it("takes the stream's usage chunk", () => {
    const encoder = new CompletionsStreamEncoder({ clientModel: 'client-model', includeUsage: true });
    const events: ChatEvent[] = [
      { type: 'message_start', id: 'up_2', model: 'up' },
      { type: 'finish', reason: 'stop', usage },
    ];
    const frames = events
      .map((event) => encoder.encode(event))
      .join('')
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: {'));
    const chunks = frames.map((frame) => JSON.parse(frame.slice(6)));
    expectValid(chunks[0]);
    expectValid(chunks.at(-1));
    expect(chunks.at(-1).choices).toEqual([]);
  });
});
