/** ChatRequest → Converse body and plan, through the bedrock channel type's adapter (which picks Converse for non-Anthropic models). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../../src/core/chat.js';
import { bedrockAdapter } from '../../../../src/upstreams/bedrock/index.js';
import type { ConverseRequest } from '../../../../src/upstreams/protocols/converse/wire.js';
import { prepareWith } from '../../support/call.js';

const NOVA = 'us.amazon.nova-pro-v1:0';
const CLAUDE = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const LLAMA = 'meta.llama3-3-70b-instruct-v1:0';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const fixture = JSON.parse(readFileSync(new URL('../../../fixtures/bedrock/converse-tool-use.json', import.meta.url), 'utf8'));

const base: ChatRequest = { model: 'alias', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const prepare = (overrides: Partial<ChatRequest>, upstreamModel = NOVA, settings: Record<string, unknown> = { cacheBreakpoints: false }, dialect?: ChatRequest['model']) =>
  prepareWith(bedrockAdapter, { ...base, ...overrides }, { upstreamModel, settings, dialect: dialect as never });
const body = (...args: Parameters<typeof prepare>) => prepare(...args).body as ConverseRequest;
const decisions = (...args: Parameters<typeof prepare>) => prepare(...args).decisions;

describe('prepare for Converse', () => {
  it('writes the documented tool-use request', () => {
    const { request } = fixture;
    const tool = request.toolConfig.tools[0].toolSpec;
    const sent = body({
      messages: [{ role: 'user', content: [{ type: 'text', text: request.messages[0].content[0].text }] }],
      tools: [{ type: 'function', name: tool.name, description: tool.description, parameters: tool.inputSchema.json }],
    });
    expect(sent).toEqual(request);
  });

  it('maps the common fields; top_k where the family takes it, else a hint', () => {
    const common = { system: 'be brief', maxTokens: 300, temperature: 0.5, topP: 0.9, topK: 40, stopSequences: ['END'] };
    expect(body(common)).toEqual({
      system: [{ text: 'be brief' }],
      messages: base.messages.map(() => ({ role: 'user', content: [{ text: 'hi' }] })),
      inferenceConfig: { maxTokens: 300, temperature: 0.5, topP: 0.9, stopSequences: ['END'] },
      additionalModelRequestFields: { inferenceConfig: { topK: 40 } },
    });
    const claude = body(common, CLAUDE, { cacheBreakpoints: false, anthropicApi: 'converse' });
    expect(claude.additionalModelRequestFields).toEqual({ top_k: 40 });
    expect(claude.additionalModelResponseFieldPaths).toEqual(['/stop_sequence']);
    const llama = prepare({ ...common, seed: 7 }, LLAMA);
    expect((llama.body as ConverseRequest).additionalModelRequestFields).toBeUndefined();
    expect(llama.decisions.decisions).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'top_k', treatment: 'hint' }), expect.objectContaining({ field: 'seed', treatment: 'hint' })]));
  });

  it('sends no maxTokens unless the client or the channel gives one', () => {
    expect(body({}).inferenceConfig).toBeUndefined();
    expect(body({}, NOVA, { cacheBreakpoints: false, converseMaxTokens: 1000 }).inferenceConfig).toEqual({ maxTokens: 1000 });
  });

  it('folds system turns into system blocks and merges turns of one role', () => {
    const plan = prepare({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'system', content: [{ type: 'text', text: 'be careful' }] },
        { role: 'user', content: [{ type: 'text', text: 'b' }] },
      ],
    });
    expect(plan.body).toEqual({ system: [{ text: 'be careful' }], messages: [{ role: 'user', content: [{ text: 'a' }, { text: 'b' }] }] });
    expect(plan.decisions.decisions).toContainEqual(expect.objectContaining({ field: 'system messages', treatment: 'mapped' }));
  });

  it('turns a tool loop into toolUse and toolResult blocks, results first', () => {
    const sent = body({
      tools: [{ type: 'function', name: 'top_song', parameters: { type: 'object' } }],
      toolChoice: { type: 'required' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'song?' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'tooluse_1', name: 'top_song', input: { sign: 'WZPZ' } }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'here' },
            { type: 'tool_result', callId: 'tooluse_1', content: [{ type: 'text', text: 'Elemental Hotel' }], isError: false },
          ],
        },
      ],
    });
    expect(sent.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'top_song', inputSchema: { json: { type: 'object' } } } }], toolChoice: { any: {} } });
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'top_song', input: { sign: 'WZPZ' } } }] });
    expect(sent.messages[2].content).toEqual([{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: 'Elemental Hotel' }], status: 'success' } }, { text: 'here' }]);
  });

  it('tool_choice none: no tools sent; refused when the conversation holds tool calls', () => {
    const tools = [{ type: 'function' as const, name: 'f', parameters: { type: 'object' } }];
    const plain = prepare({ tools, toolChoice: { type: 'none' } });
    expect((plain.body as ConverseRequest).toolConfig).toBeUndefined();
    expect(plain.decisions.decisions).toContainEqual(expect.objectContaining({ field: 'tool_choice none', treatment: 'mapped' }));
    const loop = decisions({
      tools,
      toolChoice: { type: 'none' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'x' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', callId: 't1', content: [{ type: 'text', text: 'y' }] }] },
      ],
    });
    expect(loop.refusal?.message).toMatch(/tool_choice none/);
  });

  it('sends images as bytes, an s3:// image by location, and refuses an image by URL or audio', () => {
    const media = (part: Record<string, unknown>) => prepare({ messages: [{ role: 'user', content: [{ type: 'media', ...part } as never] }] });
    expect((media({ mediaType: 'image/png', data: PNG }).body as ConverseRequest).messages[0].content).toEqual([{ image: { format: 'png', source: { bytes: PNG } } }]);
    expect((media({ mediaType: 'image/jpeg', url: 's3://bucket/cat.jpg' }).body as ConverseRequest).messages[0].content).toEqual([
      { image: { format: 'jpeg', source: { s3Location: { uri: 's3://bucket/cat.jpg' } } } },
    ]);
    expect(media({ mediaType: 'image/png', url: 'https://example.com/cat.png' }).decisions.refusal?.message).toMatch(/not by URL/);
    expect(media({ mediaType: 'audio/wav', data: 'AAAA' }).decisions.refusal?.message).toMatch(/audio\/wav/);
    const pdf = media({ mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'report.v2.pdf' }).body as ConverseRequest;
    expect(pdf.messages[0].content).toEqual([{ document: { format: 'pdf', name: 'report v2 (1)', source: { bytes: 'JVBERi0=' } } }]);
  });

  it('thinking: Claude budget, Nova 2 reasoningConfig, gpt-oss effort, else a hint', () => {
    const thinking = { thinking: { enabled: true, effort: 'high' as const } };
    const claude = body(thinking, CLAUDE, { cacheBreakpoints: false, anthropicApi: 'converse' });
    expect(claude.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 32768 } });
    expect(claude.inferenceConfig?.maxTokens).toBe(32768 + 4096);
    // A channel limit at or under the budget still leaves room for the answer.
    expect(body(thinking, CLAUDE, { cacheBreakpoints: false, anthropicApi: 'converse', converseMaxTokens: 8000 }).inferenceConfig?.maxTokens).toBe(32768 + 4096);
    expect(body({ thinking: { enabled: true, budgetTokens: 2000 } }, CLAUDE, { cacheBreakpoints: false, anthropicApi: 'converse', converseMaxTokens: 8000 }).inferenceConfig?.maxTokens).toBe(8000);
    expect(body(thinking, 'amazon.nova-2-lite-v1:0').additionalModelRequestFields).toEqual({ reasoningConfig: { type: 'enabled', maxReasoningEffort: 'high' } });
    expect(body(thinking, 'openai.gpt-oss-120b-1:0').additionalModelRequestFields).toEqual({ reasoning_effort: 'high' });
    expect(body(thinking, LLAMA, { cacheBreakpoints: false, converseReasoning: 'reasoning_effort' }).additionalModelRequestFields).toEqual({ reasoning_effort: 'high' });
    const llama = prepare(thinking, LLAMA, { cacheBreakpoints: false }, 'responses');
    expect((llama.body as ConverseRequest).additionalModelRequestFields).toBeUndefined();
    expect(llama.decisions.decisions).toContainEqual(expect.objectContaining({ field: 'reasoning.effort', treatment: 'hint' }));
  });

  it('gives a thought back only with its signature from this channel type, and turns Claude thinking off when the loop lost it', () => {
    const turn = (origin: string) => ({
      thinking: { enabled: true, budgetTokens: 2000 },
      messages: [
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'x' }] },
        {
          role: 'assistant' as const,
          content: [
            { type: 'thinking' as const, text: 'hmm', signature: 'sig', origin },
            { type: 'tool_call' as const, id: 't1', name: 'f', input: {} },
          ],
        },
        { role: 'user' as const, content: [{ type: 'tool_result' as const, callId: 't1', content: [{ type: 'text' as const, text: 'y' }] }] },
      ],
      tools: [{ type: 'function' as const, name: 'f', parameters: { type: 'object' } }],
    });
    const settings = { cacheBreakpoints: false, anthropicApi: 'converse' };
    const own = prepare(turn('bedrock'), CLAUDE, settings);
    expect((own.body as ConverseRequest).messages[1].content[0]).toEqual({ reasoningContent: { reasoningText: { text: 'hmm', signature: 'sig' } } });
    expect((own.body as ConverseRequest).additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2000 } });
    const foreign = prepare(turn('anthropic'), CLAUDE, settings);
    expect((foreign.body as ConverseRequest).messages[1].content).toEqual([{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }]);
    expect((foreign.body as ConverseRequest).additionalModelRequestFields).toBeUndefined();
    expect(foreign.decisions.decisions).toContainEqual(expect.objectContaining({ field: 'thinking', treatment: 'mapped' }));
  });

  it('structured output: a JSON schema as outputConfig.textFormat, json_object refused', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    const plan = prepare({ responseFormat: { type: 'json_schema', name: 'person', schema } }, NOVA, { cacheBreakpoints: false }, 'chat-completions');
    expect((plan.body as ConverseRequest).outputConfig).toEqual({ textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: JSON.stringify(schema), name: 'person' } } } });
    expect(plan.decisions.decisions).toContainEqual(expect.objectContaining({ field: 'response_format', treatment: 'mapped' }));
    expect(decisions({ responseFormat: { type: 'json_object' } }).refusal?.message).toMatch(/json_object/);
  });

  it('places cache points: the client’s marks, else the gateway’s at most four, only for caching families', () => {
    const marked = body(
      {
        system: 'sys',
        cache: { system: { ttl: '5m' } },
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'doc', cache: { ttl: '5m' } },
              { type: 'text', text: 'q' },
            ],
          },
        ],
      },
      NOVA,
      {},
    );
    expect(marked.system).toEqual([{ text: 'sys' }, { cachePoint: { type: 'default' } }]);
    expect(marked.messages[0].content).toEqual([{ text: 'doc' }, { cachePoint: { type: 'default' } }, { text: 'q' }]);
    const own = body(
      {
        system: 'sys',
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'a' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
          { role: 'user', content: [{ type: 'text', text: 'c' }] },
        ],
      },
      NOVA,
      {},
    );
    expect(own.toolConfig?.tools.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    expect(own.system?.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    expect(own.messages.map((message) => message.content.length)).toEqual([1, 2, 2]);
    const many = body({ messages: [{ role: 'user', content: ['1', '2', '3', '4', '5', '6'].map((text) => ({ type: 'text' as const, text, cache: { ttl: '5m' as const } })) }] }, NOVA, {});
    expect(many.messages[0].content.filter((block) => 'cachePoint' in block)).toHaveLength(4);
    expect(many.messages[0].content.slice(0, 3)).toEqual([{ text: '1' }, { text: '2' }, { text: '3' }]);
    const llama = prepare({ system: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'doc', cache: { ttl: '5m' } }] }] }, LLAMA, {});
    expect(JSON.stringify(llama.body)).not.toContain('cachePoint');
    expect(llama.decisions.decisions).toContainEqual(expect.objectContaining({ field: 'cache_control', treatment: 'hint' }));
  });

  it('picks InvokeModel for Anthropic models unless the channel says converse', () => {
    expect(prepare({}, CLAUDE, {}).body).toHaveProperty('max_tokens');
    expect(prepare({}, CLAUDE, { anthropicApi: 'converse' }).body).toHaveProperty('messages', [{ role: 'user', content: [{ text: 'hi' }, { cachePoint: { type: 'default' } }] }]);
  });
});
