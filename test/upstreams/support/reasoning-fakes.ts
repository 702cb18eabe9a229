/**
 * Loopback providers that reason before a tool call, each in its own wire
 * format and with its own opaque state: the first turn answers with reasoning
 * and a `get_weather` call, a turn that carries the tool's result answers
 * with text. Requests are recorded, so a test can check which state came back.
 */
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from './fake-upstream.js';
import { messageEvents } from '../../support/claude-script.js';

/** The providers' own values, as the fakes hand them out. */
export const GEMINI_SIGNATURE = 'R0VNSU5JLVNJRy1vbi1jYWxs';
export const GEMINI_THOUGHT_SIGNATURE = 'R0VNSU5JLVNJRy1vbi10aG91Z2h0';
export const ANTHROPIC_SIGNATURE = 'EqQBANTHROPIC-SIGNATURE';
export const ANTHROPIC_THOUGHT = 'I should look up the weather in Paris.';
export const OPENAI_REASONING = { id: 'rs_upstream_1', encrypted: 'gAAAAB-openai-encrypted' };

const json = (body: unknown): FakeReply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const sse = (events: unknown[]): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  chunks: events.map((event) => `data: ${JSON.stringify(event)}\n\n`),
});

function geminiReply(request: RecordedRequest): FakeReply {
  const body = request.json<{ contents: Array<{ parts: Array<Record<string, unknown>> }> }>();
  const answered = body.contents.some((content) => content.parts.some((part) => part.functionResponse));
  const parts = answered
    ? [{ text: 'It is sunny in Paris.' }]
    : [
        { text: 'Looking up the weather.', thought: true, thoughtSignature: GEMINI_THOUGHT_SIGNATURE },
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: GEMINI_SIGNATURE },
      ];
  const answer = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 3, totalTokenCount: 18 },
    modelVersion: 'gemini-3-pro-preview',
    responseId: 'gemini-answer',
  };
  return request.url.includes(':streamGenerateContent') ? sse([answer]) : json(answer);
}

function anthropicReply(request: RecordedRequest): FakeReply {
  const body = request.json<{ messages: Array<{ content: string | Array<{ type: string }> }> }>();
  const answered = body.messages.some((message) => Array.isArray(message.content) && message.content.some((block) => block.type === 'tool_result'));
  const content = answered
    ? [{ type: 'text', text: 'It is sunny in Paris.' }]
    : [
        { type: 'thinking', thinking: ANTHROPIC_THOUGHT, signature: ANTHROPIC_SIGNATURE },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ];
  const message = { id: 'msg_fake', type: 'message', role: 'assistant', model: 'claude-x', stop_sequence: null };
  const stopReason = answered ? 'end_turn' : 'tool_use';
  if (request.json<{ stream?: boolean }>().stream) return anthropicStream(message, content, stopReason);
  return json({ ...message, content, stop_reason: stopReason, usage: { input_tokens: 10, output_tokens: 5 } });
}

/** The same answer as Anthropic streams it (claude-script.ts). */
function anthropicStream(message: Record<string, unknown>, content: Array<Record<string, any>>, stopReason: string): FakeReply {
  const events = messageEvents(message, content, stopReason, { input_tokens: 10 }, 5);
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`) };
}

function openaiReply(request: RecordedRequest): FakeReply {
  const body = request.json<{ input: Array<{ type?: string }> }>();
  const answered = body.input.some((item) => item.type === 'function_call_output');
  const output = answered
    ? [{ id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'It is sunny in Paris.', annotations: [] }] }]
    : [
        { id: OPENAI_REASONING.id, type: 'reasoning', summary: [], encrypted_content: OPENAI_REASONING.encrypted },
        { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ];
  return json({
    id: 'resp_upstream',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: 'gpt-x',
    output,
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, output_tokens_details: { reasoning_tokens: 3 } },
  });
}

export interface ReasoningFakes {
  gemini: FakeUpstream;
  anthropic: FakeUpstream;
  openai: FakeUpstream;
  /** Channels for a gateway config: `gemini-3-pro-preview`, `claude-x`, `gpt-x`. */
  channels: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startReasoningFakes(): Promise<ReasoningFakes> {
  const gemini = await startFakeUpstream(geminiReply);
  const anthropic = await startFakeUpstream(anthropicReply);
  const openai = await startFakeUpstream(openaiReply);
  return {
    gemini,
    anthropic,
    openai,
    channels: [
      { name: 'gemini', type: 'gemini', baseUrl: gemini.origin, apiKey: 'AIza-upstream', models: ['gemini-3-pro-preview'] },
      { name: 'anthropic', type: 'anthropic', baseUrl: anthropic.origin, apiKey: 'sk-upstream-anthropic', models: ['claude-x'] },
      { name: 'openai', type: 'openai-responses', baseUrl: `${openai.origin}/v1`, apiKey: 'sk-upstream-openai', models: ['gpt-x'] },
    ],
    async close() {
      for (const fake of [gemini, anthropic, openai]) await fake.close();
    },
  };
}
