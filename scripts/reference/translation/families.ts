/**
 * The chat families as the translation tables probe them: each family's
 * own validation and conversion to the internal request, the same functions
 * its routes call (the route's `toCore`), and the minimum body every probe of
 * the family starts from.
 */
import type { ChatRequest, Dialect } from '../../../src/core/chat.js';
import { chatCompletionsToCore } from '../../../src/families/chat-completions/to-core.js';
import { parseChatCompletionsRequest } from '../../../src/families/chat-completions/validate.js';
import { completionsToCore } from '../../../src/families/completions/to-core.js';
import { parseCompletionsRequest } from '../../../src/families/completions/validate.js';
import { generateToCore } from '../../../src/families/generate/to-core.js';
import { parseGenerateRequest } from '../../../src/families/generate/validate.js';
import { messagesToCore } from '../../../src/families/messages/to-core.js';
import { parseMessagesRequest } from '../../../src/families/messages/validate.js';
import { currentItems } from '../../../src/families/responses/conversation.js';
import { emptyHistory } from '../../../src/families/responses/history.js';
import { inputAsItems } from '../../../src/families/responses/items.js';
import { responsesToCore } from '../../../src/families/responses/to-core.js';
import { parseResponsesRequest } from '../../../src/families/responses/validate.js';

export type Body = Record<string, unknown>;

export interface ProbedFamily {
  /** The dialect its clients speak: the upstream of the same dialect takes the pass-through path. */
  dialect: Dialect;
  /** The document whose generated table lists this family's fields. */
  doc: string;
  /** What every probe carries besides its field: what the dialect requires. */
  minimum: Body;
  /** The route's validation and `toCore`, run on a probe body. */
  toCore(body: Body): ChatRequest;
}

export const messagesFamily: ProbedFamily = {
  dialect: 'messages',
  doc: 'docs/translation/messages.md',
  minimum: { model: 'probe', max_tokens: 4096, messages: [{ role: 'user', content: 'Hello' }] },
  toCore: (body) => messagesToCore(parseMessagesRequest(body)),
};

export const generateFamily: ProbedFamily = {
  dialect: 'generate',
  doc: 'docs/translation/generate.md',
  minimum: { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] },
  // The model and the stream flag come from the path (`models/<model>:generateContent`).
  toCore: (body) => generateToCore(parseGenerateRequest(body), 'probe', false),
};

export const responsesFamily: ProbedFamily = {
  dialect: 'responses',
  doc: 'docs/translation/responses.md',
  minimum: { model: 'probe', input: 'Hello' },
  // A request that continues nothing stored: the conversation is this request's input alone.
  toCore: (body) => {
    const parsed = parseResponsesRequest(body);
    return responsesToCore(parsed, currentItems(inputAsItems(parsed.input), emptyHistory));
  },
};

export const chatCompletionsFamily: ProbedFamily = {
  dialect: 'chat-completions',
  doc: 'docs/translation/chat-completions.md',
  minimum: { model: 'probe', messages: [{ role: 'user', content: 'Hello' }] },
  toCore: (body) => chatCompletionsToCore(parseChatCompletionsRequest(body)),
};

export const completionsFamily: ProbedFamily = {
  dialect: 'completions',
  doc: 'docs/translation/completions.md',
  minimum: { model: 'probe', prompt: 'Hello' },
  toCore: (body) => completionsToCore(parseCompletionsRequest(body)),
};
