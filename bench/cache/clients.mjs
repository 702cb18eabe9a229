/**
 * The four client dialects, shaped like the agents that speak them, from the
 * requests recorded in test/fixtures/agents: Claude Code (Messages), Codex
 * (Responses), opencode (Chat Completions), Gemini CLI (content generation).
 *
 * Each client builds turn `n` of a session from its recorded first turn (the
 * session's long stable prefix: system prompt and tools) plus the history so
 * far, and reads the answer back (plain or streamed) into the next turn's
 * history, the tool calls it asks for (answered next turn with the tool's
 * output, else the output comes as a user message) and the usage it reports
 * in its own dialect.
 *
 * The session's marker starts the system prompt and the first tool's
 * description, so that no two sessions share a cacheable prefix.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'agents');
const load = (file) => JSON.parse(readFileSync(join(fixtures, file), 'utf8'));
const clone = (value) => structuredClone(value);

/** What a tool run prints, different every turn: the moving end of the conversation. */
export function toolOutput(turn) {
  const lines = Array.from({ length: 28 }, (_, index) => `src/pkg${turn}/file${index}.ts:${(index + 1) * 7}: ok (${turn}.${index})`);
  return `Turn ${turn}: here is the output of the last command.\n${lines.join('\n')}\nContinue.`;
}

/** The recorded headers, with the client's credential in place of the redaction, and no compression. */
function headersOf(recorded, credential) {
  const headers = {};
  for (const [name, value] of Object.entries(recorded)) {
    if (name === 'accept-encoding' || name === 'connection') continue;
    headers[name] = value === '<redacted>' ? credential : value.replace('Bearer <redacted>', `Bearer ${credential}`);
  }
  return headers;
}

/** Server-sent events' JSON payloads (`[DONE]` and non-JSON lines skipped). */
export function sseData(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (!data || data === '[DONE]') continue;
    out.push(JSON.parse(data));
  }
  return out;
}

const n = (value) => (typeof value === 'number' ? value : 0);

/** Claude Code: breakpoints on its system blocks and on the last block of the last message. */
const claudeCode = {
  name: 'messages',
  agent: 'Claude Code 2.1.328',
  recorded: load('claude-code-2.1.328/04-claude-sonnet-4-5-plain-turn.json'),
  /** `ttl` '1h': every breakpoint asks for the one-hour cache, as Claude Code does where it is enabled. */
  start(marker, key, model, { ttl } = {}) {
    const { headers, body } = clone(this.recorded);
    const id = randomUUID();
    body.model = model;
    body.system[1].text = `${marker} ${body.system[1].text}`;
    body.tools[0].description = `${marker} ${body.tools[0].description}`;
    const mark = ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
    for (const block of body.system) if (block.cache_control) block.cache_control = mark;
    body.messages.at(-1).content.at(-1).cache_control = mark;
    body.metadata.user_id = body.metadata.user_id.replaceAll(headers['x-claude-code-session-id'], id);
    return { path: '/v1/messages?beta=true', headers: { ...headersOf(headers, key), 'x-claude-code-session-id': id }, body, mark };
  },
  nextTurn(state, turn, calls) {
    for (const message of state.body.messages) {
      if (Array.isArray(message.content)) for (const block of message.content) delete block.cache_control;
    }
    const content = calls.length ? calls.map((call) => ({ tool_use_id: call.id, type: 'tool_result', content: toolOutput(turn), is_error: false })) : [{ type: 'text', text: toolOutput(turn) }];
    content.at(-1).cache_control = state.mark;
    state.body.messages.push({ role: 'user', content });
  },
  request(state, stream) {
    return { path: state.path, headers: state.headers, body: { ...state.body, stream } };
  },
  read(text, stream) {
    let content;
    let usage = {};
    if (!stream) ({ content, usage } = JSON.parse(text));
    else {
      content = [];
      for (const event of sseData(text)) {
        if (event.type === 'message_start') usage = { ...event.message.usage };
        if (event.type === 'content_block_start') content[event.index] = { ...event.content_block };
        if (event.type === 'content_block_delta') {
          const block = content[event.index];
          if (event.delta.type === 'text_delta') block.text += event.delta.text;
          if (event.delta.type === 'thinking_delta') block.thinking += event.delta.thinking;
          if (event.delta.type === 'signature_delta') block.signature = event.delta.signature;
          if (event.delta.type === 'input_json_delta') block.json = (block.json ?? '') + event.delta.partial_json;
        }
        if (event.type === 'content_block_stop' && content[event.index]?.type === 'tool_use') {
          const { json, ...block } = content[event.index];
          content[event.index] = { ...block, input: json ? JSON.parse(json) : block.input };
        }
        if (event.type === 'message_delta') usage = { ...usage, ...event.usage };
      }
    }
    const read = n(usage.cache_read_input_tokens);
    const written = n(usage.cache_creation_input_tokens);
    const blocks = content.filter(Boolean);
    return {
      history: [{ role: 'assistant', content: blocks }],
      calls: blocks.filter((block) => block.type === 'tool_use').map((block) => ({ id: block.id, name: block.name })),
      reported: { promptTokens: n(usage.input_tokens) + read + written, cachedTokens: read },
    };
  },
  append(state, history) {
    state.body.messages.push(...history);
  },
};

/** Codex: its session and thread headers, and `prompt_cache_key` = the session id. */
const codex = {
  name: 'responses',
  agent: 'Codex 0.169.0',
  recorded: load('codex-0.169.0/04-gpt-5.5-plain-turn.json'),
  start(marker, key, model) {
    const { headers, body } = clone(this.recorded);
    const old = headers['session-id'];
    const id = randomUUID();
    const swap = (text) => text.replaceAll(old, id);
    body.model = model;
    body.prompt_cache_key = id;
    body.client_metadata = JSON.parse(swap(JSON.stringify(body.client_metadata)));
    const first = body.input[0].content[0];
    first.text = `${marker} ${first.text}`;
    body.tools[0].description = `${marker} ${body.tools[0].description}`;
    const swapped = Object.fromEntries(Object.entries(headersOf(headers, key)).map(([name, value]) => [name, swap(value)]));
    return { path: '/v1/responses', headers: swapped, body };
  },
  nextTurn(state, turn, calls) {
    if (calls.length) state.body.input.push(...calls.map((call) => ({ type: 'function_call_output', call_id: call.id, output: toolOutput(turn) })));
    else state.body.input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: toolOutput(turn) }] });
  },
  request(state, stream) {
    return { path: state.path, headers: { ...state.headers, accept: stream ? 'text/event-stream' : 'application/json' }, body: { ...state.body, stream } };
  },
  read(text, stream) {
    const response = stream ? sseData(text).find((event) => event.type === 'response.completed')?.response : JSON.parse(text);
    if (!response) throw new Error('the stream has no response.completed event');
    const usage = response.usage ?? {};
    return {
      history: response.output,
      calls: response.output.filter((item) => item.type === 'function_call').map((item) => ({ id: item.call_id, name: item.name })),
      reported: { promptTokens: n(usage.input_tokens), cachedTokens: n(usage.input_tokens_details?.cached_tokens) },
    };
  },
  append(state, history) {
    state.body.input.push(...history);
  },
};

/** opencode (through @ai-sdk/openai-compatible): no cache key in the body; its session headers. */
const opencode = {
  name: 'chat',
  agent: 'opencode 1.18.33',
  recorded: load('opencode-1.18.33/02-gpt-5.5-plain-turn.json'),
  start(marker, key, model) {
    const { headers, body } = clone(this.recorded);
    const id = `ses_${randomUUID().replaceAll('-', '').slice(0, 26)}`;
    body.model = model;
    body.messages[0].content = `${marker} ${body.messages[0].content}`;
    body.tools[0].function.description = `${marker} ${body.tools[0].function.description}`;
    return { path: '/v1/chat/completions', headers: { ...headersOf(headers, key), 'x-session-affinity': id, 'x-session-id': id }, body };
  },
  nextTurn(state, turn, calls) {
    if (calls.length) state.body.messages.push(...calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: toolOutput(turn) })));
    else state.body.messages.push({ role: 'user', content: toolOutput(turn) });
  },
  request(state, stream) {
    const { stream_options: _options, ...body } = state.body;
    return { path: state.path, headers: state.headers, body: stream ? { ...body, stream: true, stream_options: { include_usage: true } } : { ...body, stream: false } };
  },
  read(text, stream) {
    let content = '';
    let usage = {};
    let toolCalls = [];
    if (!stream) {
      const answer = JSON.parse(text);
      content = answer.choices[0].message.content ?? '';
      toolCalls = answer.choices[0].message.tool_calls ?? [];
      usage = answer.usage ?? {};
    } else {
      for (const chunk of sseData(text)) {
        const delta = chunk.choices?.[0]?.delta ?? {};
        content += delta.content ?? '';
        for (const piece of delta.tool_calls ?? []) {
          const call = (toolCalls[piece.index] ??= { id: piece.id, type: 'function', function: { name: '', arguments: '' } });
          if (piece.id) call.id = piece.id;
          call.function.name += piece.function?.name ?? '';
          call.function.arguments += piece.function?.arguments ?? '';
        }
        if (chunk.usage) usage = chunk.usage;
      }
    }
    const message = { role: 'assistant', content: content || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
    return {
      history: [message],
      calls: toolCalls.map((call) => ({ id: call.id, name: call.function.name })),
      reported: { promptTokens: n(usage.prompt_tokens), cachedTokens: n(usage.prompt_tokens_details?.cached_tokens) },
    };
  },
  append(state, history) {
    state.body.messages.push(...history);
  },
};

/** Gemini CLI: no session header; the model is in the path. */
const geminiCli = {
  name: 'generate',
  agent: 'Gemini CLI 0.61.0',
  recorded: load('gemini-cli-0.61.0/01-gemini-3.1-pro-preview-plain-turn.json'),
  start(marker, key, model) {
    const { headers, body } = clone(this.recorded);
    const first = body.systemInstruction.parts[0];
    first.text = `${marker} ${first.text}`;
    const tool = body.tools[0].functionDeclarations[0];
    tool.description = `${marker} ${tool.description}`;
    return { model, headers: headersOf(headers, key), body };
  },
  nextTurn(state, turn, calls) {
    const parts = calls.length ? calls.map((call) => ({ functionResponse: { id: call.id, name: call.name, response: { output: toolOutput(turn) } } })) : [{ text: toolOutput(turn) }];
    state.body.contents.push({ role: 'user', parts });
  },
  request(state, stream) {
    const path = `/v1beta/models/${state.model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
    return { path, headers: state.headers, body: state.body };
  },
  read(text, stream) {
    const chunks = stream ? sseData(text) : [JSON.parse(text)];
    const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    const usage = chunks.at(-1)?.usageMetadata ?? {};
    // As the SDK folds a stream: the text pieces joined, function calls kept whole (their thoughtSignature with them).
    const joined = parts
      .filter((part) => typeof part.text === 'string' && !part.thought)
      .map((part) => part.text)
      .join('');
    const functionCalls = parts.filter((part) => part.functionCall);
    return {
      history: [{ role: 'model', parts: [...(joined ? [{ text: joined }] : []), ...functionCalls] }],
      calls: functionCalls.map((part) => ({ id: part.functionCall.id, name: part.functionCall.name })),
      reported: { promptTokens: n(usage.promptTokenCount), cachedTokens: n(usage.cachedContentTokenCount) },
    };
  },
  append(state, history) {
    state.body.contents.push(...history);
  },
};

export const CLIENTS = [claudeCode, codex, opencode, geminiCli];
