/**
 * What the playground sends to each public family and how it reads the
 * answer's text back, plain or streamed (server-sent events).
 */

export type PlaygroundFamily = 'messages' | 'generate' | 'responses' | 'chat-completions';

export const FAMILY_NAMES: Record<PlaygroundFamily, string> = {
  messages: 'Messages (/v1/messages)',
  generate: 'generateContent (/v1beta)',
  responses: 'Responses (/v1/responses)',
  'chat-completions': 'Chat Completions (/v1/chat/completions)',
};

export interface Exchange {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The request, with the client key where the family's clients put it. */
export function buildExchange(family: PlaygroundFamily, model: string, prompt: string, stream: boolean, key: string): Exchange {
  const json = { 'content-type': 'application/json' };
  switch (family) {
    case 'messages':
      return {
        url: '/v1/messages',
        headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: { model, max_tokens: 1024, messages: [{ role: 'user', content: prompt }], ...(stream ? { stream: true } : {}) },
      };
    case 'generate':
      return {
        url: `/v1beta/models/${encodeURIComponent(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { ...json, 'x-goog-api-key': key },
        body: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
      };
    case 'responses':
      return { url: '/v1/responses', headers: { ...json, authorization: `Bearer ${key}` }, body: { model, input: prompt, ...(stream ? { stream: true } : {}) } };
    case 'chat-completions':
      return {
        url: '/v1/chat/completions',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: { model, messages: [{ role: 'user', content: prompt }], ...(stream ? { stream: true } : {}) },
      };
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the playground reads whatever JSON the gateway answered, in any dialect
type Json = any;

/** The text of a whole (non-streamed) answer. */
export function answerText(family: PlaygroundFamily, body: Json): string {
  switch (family) {
    case 'messages':
      return (body?.content ?? [])
        .filter((block: Json) => block.type === 'text')
        .map((block: Json) => block.text)
        .join('');
    case 'generate':
      return (body?.candidates?.[0]?.content?.parts ?? []).map((part: Json) => (part.thought ? '' : (part.text ?? ''))).join('');
    case 'responses':
      return (body?.output ?? [])
        .flatMap((item: Json) => (item.type === 'message' ? item.content : []))
        .filter((part: Json) => part.type === 'output_text')
        .map((part: Json) => part.text)
        .join('');
    case 'chat-completions':
      return body?.choices?.[0]?.message?.content ?? '';
  }
}

/** The text one streamed event adds. */
export function eventText(family: PlaygroundFamily, event: Json): string {
  switch (family) {
    case 'messages':
      return event?.type === 'content_block_delta' && event.delta?.type === 'text_delta' ? event.delta.text : '';
    case 'generate':
      return answerText('generate', event);
    case 'responses':
      return event?.type === 'response.output_text.delta' ? event.delta : '';
    case 'chat-completions':
      return event?.choices?.[0]?.delta?.content ?? '';
  }
}

/**
 * Splits a growing SSE text into complete events' `data:` payloads; returns
 * them and the unfinished rest, to be prefixed to the next chunk.
 */
export function takeEvents(buffer: string): { data: string[]; rest: string } {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  const data: string[] = [];
  for (const block of blocks) {
    const lines = block.split(/\r?\n/).filter((line) => line.startsWith('data:'));
    if (lines.length > 0) data.push(lines.map((line) => line.slice(5).replace(/^ /, '')).join('\n'));
  }
  return { data, rest };
}
