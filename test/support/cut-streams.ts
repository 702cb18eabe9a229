/**
 * Streams of each dialect that never reach their final usage, for the tests
 * of what a cut stream is charged: a fake upstream that sends a beginning
 * (with the prompt's usage where the dialect reports it early), a few text
 * deltas, then resets the connection or goes silent until the gateway hangs
 * up (the client left, shutdown, or the gateway's idle timeout); and, on the
 * client's side, the requests of each family and a reading of the text the
 * client actually received from its SSE.
 */
import { silentAfter, startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';

export type FamilyName = 'messages' | 'chat-completions' | 'responses' | 'generate';
export type CutKind = 'reset' | 'abort' | 'shutdown' | 'silent';

export const PROMPT_TOKENS = 25;

export interface CutFamily {
  name: FamilyName;
  /** The model prefix its native channel serves. */
  prefix: string;
  channelType: string;
  /** The deltas the upstream sends before the cut; the last one ends with END. */
  deltas: string[];
  /** Whether the upstream reports the prompt before it answers. */
  promptReported: boolean;
  request(model: string, key: string): { path: string; headers: Record<string, string>; body: unknown };
  /** The text pieces one parsed client event carries. */
  textOf(event: any): string | undefined;
  /** The message of the family's error frame, when the parsed event is that frame. */
  errorOf(event: any): string | undefined;
}

/** Six deltas of 18 characters: the 108 characters of the reported Messages cut. */
const messagesDeltas = ['The quick brown fo', 'x jumps over the l', 'azy dog while the ', 'cat sleeps in the ', 'warm afternoon sun', ' and then it END'.padEnd(18, '.')];
/** Four deltas of 15 characters: the 60 characters of the reported Chat Completions cut. */
const chatDeltas = ['Counting sheep ', 'is a way to fal', 'l asleep, they ', 'say, sooner END'];
const otherDeltas = ['Rivers run to t', 'he sea, and the', ' sea is never f', 'ull at all END'];

export const cutFamilies: CutFamily[] = [
  {
    name: 'messages',
    prefix: 'msg',
    channelType: 'anthropic',
    deltas: messagesDeltas,
    promptReported: true,
    request: (model, key) => ({
      path: '/v1/messages',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: { model, max_tokens: 500, stream: true, messages: [{ role: 'user', content: 'tell me a long story' }] },
    }),
    textOf: (event) => (event?.type === 'content_block_delta' ? event.delta?.text : undefined),
    errorOf: (event) => (event?.type === 'error' ? event.error?.message : undefined),
  },
  {
    name: 'chat-completions',
    prefix: 'chat',
    channelType: 'openai-chat',
    deltas: chatDeltas,
    promptReported: false,
    request: (model, key) => ({
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      body: { model, stream: true, messages: [{ role: 'user', content: 'tell me a long story' }] },
    }),
    textOf: (event) => event?.choices?.[0]?.delta?.content ?? undefined,
    errorOf: (event) => event?.error?.message,
  },
  {
    name: 'responses',
    prefix: 'resp',
    channelType: 'openai-responses',
    deltas: otherDeltas,
    promptReported: false,
    request: (model, key) => ({ path: '/v1/responses', headers: { authorization: `Bearer ${key}` }, body: { model, input: 'tell me a long story', stream: true } }),
    textOf: (event) => (event?.type === 'response.output_text.delta' ? event.delta : undefined),
    errorOf: (event) => (event?.type === 'response.failed' ? event.response?.error?.message : undefined),
  },
  {
    name: 'generate',
    prefix: 'gem',
    channelType: 'gemini',
    deltas: otherDeltas,
    promptReported: true,
    request: (model, key) => ({
      path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
      headers: { 'x-goog-api-key': key },
      body: { contents: [{ role: 'user', parts: [{ text: 'tell me a long story' }] }] },
    }),
    textOf: (event) => (event?.candidates?.[0]?.content?.parts ?? []).map((part: { text?: string }) => part.text ?? '').join('') || undefined,
    errorOf: (event) => event?.error?.message,
  },
];

const frame = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** The upstream's frames: its beginning, then one frame per delta. */
export function framesOf(family: FamilyName, deltas: string[]): string[] {
  switch (family) {
    case 'messages':
      return [
        frame(
          {
            type: 'message_start',
            message: { id: 'msg_cut', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: PROMPT_TOKENS, output_tokens: 1 } },
          },
          'message_start',
        ) + frame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
        ...deltas.map((text) => frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta')),
      ];
    case 'chat-completions':
      return [
        frame({ id: 'chatcmpl-cut', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
        ...deltas.map((content) => frame({ id: 'chatcmpl-cut', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
      ];
    case 'responses':
      return [
        frame({ type: 'response.created', sequence_number: 0, response: { id: 'resp_cut', object: 'response', status: 'in_progress', model: 'm', output: [], usage: null } }, 'response.created'),
        ...deltas.map((delta, i) => frame({ type: 'response.output_text.delta', item_id: 'msg_cut', output_index: 0, content_index: 0, delta, sequence_number: i + 1 }, 'response.output_text.delta')),
      ];
    case 'generate':
      return deltas.map((text, i) =>
        frame({
          candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }],
          usageMetadata: { promptTokenCount: PROMPT_TOKENS, candidatesTokenCount: i + 1, totalTokenCount: PROMPT_TOKENS + i + 1 },
          responseId: 'gem_cut',
        }),
      );
  }
}

function modelOf(request: RecordedRequest): string {
  const inPath = /models\/([^:/]+):/.exec(request.url);
  return inPath ? inPath[1]! : String(request.json().model);
}

/** Model names say the family (by prefix) and the cut (the rest): `msg-reset`, `gem-abort`… */
export function modelFor(family: CutFamily, kind: CutKind): string {
  return `${family.prefix}-${kind}`;
}

export function startCutUpstream(): Promise<FakeUpstream> {
  return startFakeUpstream((request): FakeReply => {
    const model = modelOf(request);
    const family = cutFamilies.find((entry) => model.startsWith(`${entry.prefix}-`))!;
    const chunks = framesOf(family.name, family.deltas);
    if (model.endsWith('-reset')) return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks, cutAfterChunks: chunks.length };
    // Silent after the deltas until the gateway hangs up (the client left, shutdown ended the call, or the idle timeout did).
    return silentAfter(request, chunks);
  });
}

export function channelsFor(upstream: FakeUpstream) {
  return cutFamilies.map((family) => ({
    name: family.name,
    type: family.channelType,
    baseUrl: family.channelType.startsWith('openai') ? `${upstream.origin}/v1` : upstream.origin,
    apiKey: 'sk-upstream-cut-0001',
    models: [`${family.prefix}-*`],
  }));
}

function* parsedEvents(sse: string): Iterable<unknown> {
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      yield JSON.parse(line.slice(5).trim());
    } catch {
      // A data line that is not JSON ([DONE]) carries no text.
    }
  }
}

/** The text the client received: every delta of its family's events in what it read. */
export function receivedText(family: CutFamily, sse: string): string {
  const pieces: string[] = [];
  for (const event of parsedEvents(sse)) {
    const text = family.textOf(event);
    if (text) pieces.push(text);
  }
  return pieces.join('');
}

/** The message of the stream's last event, when that event is the family's error frame. */
export function closingError(family: CutFamily, sse: string): string | undefined {
  const events = [...parsedEvents(sse)];
  return events.length > 0 ? family.errorOf(events.at(-1)) : undefined;
}

/** Reads a streamed answer until `until` says enough (or it ends): the text so far, and the reader to go on with. */
export async function readUntil(response: Response, until: (text: string) => boolean) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return {
    text,
    async rest(): Promise<string> {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    },
  };
}
