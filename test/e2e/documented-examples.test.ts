/**
 * The cloud services' own documented answers (test/fixtures/bedrock/ and
 * test/fixtures/vertex/, each with its source and license), scripted into the
 * loopback services and replayed through the adapters: what each client family
 * sees of them, passed through or translated. Azure's documented answer is
 * replayed by azure-openai.test.ts.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import type OpenAI from 'openai';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { chunk, startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock.js';
import { startFakeVertex, type FakeVertex } from '../support/fake-vertex.js';
import { sdkClients } from '../support/sdk-clients.js';

const CLIENT_KEY = 'sk-client-documented';
const fixture = (path: string) => JSON.parse(readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8'));
const bedrockToolUse = fixture('bedrock/invoke-tool-use.json');
const bedrockStream = fixture('bedrock/invoke-stream-tool-use.json') as unknown[];
const vertexClaude = fixture('vertex/claude-raw-predict.json');
const vertexGemini = fixture('vertex/gemini-generate-content.json');

let bedrock: FakeBedrock;
let vertex: FakeVertex;
let gw: TestGateway;
let anthropic: Anthropic;
let openai: OpenAI;
let genai: GoogleGenAI;

beforeAll(async () => {
  bedrock = await startFakeBedrock();
  vertex = await startFakeVertex();
  gw = await startGateway({
    config: {
      channels: [
        {
          name: 'bedrock',
          type: 'bedrock',
          apiKey: bedrock.accessKey,
          models: ['claude-bedrock'],
          modelMapping: { 'claude-bedrock': 'anthropic.claude-3-sonnet-20240229-v1:0' },
          settings: { region: bedrock.region, endpoint: bedrock.origin },
        },
        {
          name: 'vertex',
          type: 'vertex',
          apiKey: vertex.serviceAccountKey(),
          models: ['claude-vertex', 'gemini-vertex'],
          modelMapping: { 'claude-vertex': 'claude-opus-4-7', 'gemini-vertex': 'gemini-2.0-flash-001' },
          settings: { project: vertex.project, location: vertex.location, endpoint: vertex.origin },
        },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
    },
  });
  ({ anthropic, openai, genai } = sdkClients(gw.url, CLIENT_KEY));
});
afterAll(async () => {
  await gw?.close();
  await bedrock?.close();
  await vertex?.close();
});

const vertexJson = (body: unknown) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const openAiTool = (tool: { name: string; description: string; input_schema: Record<string, unknown> }) => ({
  type: 'function' as const,
  function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
});

describe('Bedrock InvokeModel, Anthropic Claude tool use (AWS documentation)', () => {
  it('a Messages client gets the documented answers as Bedrock gave them, the second without usage', async () => {
    bedrock.script({ status: 200, json: bedrockToolUse.response });
    const first = await anthropic.messages.create({ model: 'claude-bedrock', ...bedrockToolUse.request });
    expect(first).toEqual(bedrockToolUse.response);
    bedrock.script({ status: 200, json: bedrockToolUse.final });
    const second = await anthropic.messages.create({
      model: 'claude-bedrock',
      ...bedrockToolUse.request,
      messages: [...bedrockToolUse.request.messages, { role: 'assistant', content: first.content }, bedrockToolUse.toolResult],
    });
    expect(second.content).toEqual(bedrockToolUse.final.content);
    expect(second.stop_reason).toBe('end_turn');
  });

  it('a Chat Completions client gets the tool call and its usage, then the answer', async () => {
    bedrock.script({ status: 200, json: bedrockToolUse.response });
    const first = await openai.chat.completions.create({ model: 'claude-bedrock', tools: [openAiTool(bedrockToolUse.request.tools[0])], messages: bedrockToolUse.request.messages });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls).toEqual([{ id: 'toolu_bdrk_01SnXQc6YVWD8Dom5jz7KhHy', type: 'function', function: { name: 'top_song', arguments: '{"sign":"WZPZ"}' } }]);
    expect(first.usage).toMatchObject({ prompt_tokens: 375, completion_tokens: 36, total_tokens: 411 });
    bedrock.script({ status: 200, json: bedrockToolUse.final });
    const second = await openai.chat.completions.create({
      model: 'claude-bedrock',
      tools: [openAiTool(bedrockToolUse.request.tools[0])],
      messages: [...bedrockToolUse.request.messages, choice.message, { role: 'tool', tool_call_id: 'toolu_bdrk_01SnXQc6YVWD8Dom5jz7KhHy', content: 'Elemental Hotel' }],
    });
    expect(second.choices[0]!.message.content).toBe(bedrockToolUse.final.content[0].text);
    expect(second.choices[0]!.finish_reason).toBe('stop');
    const sent = bedrock.requests.at(-1)!.body;
    // The tool's result goes back to Bedrock under the documented tool id.
    expect(sent.messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_bdrk_01SnXQc6YVWD8Dom5jz7KhHy', content: [{ type: 'text', text: 'Elemental Hotel' }] }],
    });
  });

  it('the documented stream reaches a Messages client event by event and a Chat Completions client as a tool call', async () => {
    bedrock.script({ status: 200, events: bedrockStream.map(chunk) });
    const res = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-bedrock', stream: true, ...bedrockToolUse.request }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const events = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(events).toEqual(bedrockStream);
    bedrock.script({ status: 200, events: bedrockStream.map(chunk) });
    let name = '';
    let args = '';
    let finish: string | null = null;
    for await (const part of await openai.chat.completions.create({
      model: 'claude-bedrock',
      stream: true,
      tools: [openAiTool(bedrockToolUse.request.tools[0])],
      messages: bedrockToolUse.request.messages,
    })) {
      const call = part.choices[0]?.delta.tool_calls?.[0];
      name += call?.function?.name ?? '';
      args += call?.function?.arguments ?? '';
      finish = part.choices[0]?.finish_reason ?? finish;
    }
    expect(name).toBe('data_analyzer');
    expect(JSON.parse(args)).toEqual({ data: 'sample data' });
    expect(finish).toBe('tool_calls');
  });
});

describe('Vertex AI rawPredict, Claude structured outputs (Google Cloud documentation)', () => {
  it('a Messages client gets the JSON output as Vertex gave it', async () => {
    vertex.script(vertexJson(vertexClaude.jsonOutput.response));
    const message = await anthropic.messages.create({ model: 'claude-vertex', ...vertexClaude.jsonOutput.request });
    expect(message).toEqual(vertexClaude.jsonOutput.response);
    expect(vertex.requests.at(-1)!.body.output_config).toEqual(vertexClaude.jsonOutput.request.output_config);
  });

  it('a Chat Completions client gets the JSON output as its content and the strict tool call as a tool call', async () => {
    vertex.script(vertexJson(vertexClaude.jsonOutput.response));
    const { schema } = vertexClaude.jsonOutput.request.output_config.format;
    const extracted = await openai.chat.completions.create({
      model: 'claude-vertex',
      messages: vertexClaude.jsonOutput.request.messages,
      response_format: { type: 'json_schema', json_schema: { name: 'contact', schema, strict: true } },
    });
    expect(JSON.parse(extracted.choices[0]!.message.content!)).toEqual({ name: 'John Smith', email: 'john@example.com', plan_interest: 'Enterprise', demo_requested: true });
    expect(extracted.usage).toMatchObject({ prompt_tokens: 78, completion_tokens: 42 });
    vertex.script(vertexJson(vertexClaude.strictTool.response));
    const tool = vertexClaude.strictTool.request.tools[0];
    const called = await openai.chat.completions.create({
      model: 'claude-vertex',
      messages: vertexClaude.strictTool.request.messages,
      tools: [{ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.input_schema, strict: true } }],
    });
    expect(called.choices[0]!.finish_reason).toBe('tool_calls');
    expect(called.choices[0]!.message.tool_calls).toEqual([
      { id: 'toolu_vrtx_01TAJCTkxe8HhRoaQ69N4ouP', type: 'function', function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"fahrenheit"}' } },
    ]);
  });
});

describe('Vertex AI generateContent, Gemini usage (Google Cloud sample)', () => {
  it('a content-generation client gets the answer and its usageMetadata as Vertex gave them', async () => {
    vertex.script(vertexJson(vertexGemini.response));
    const answer = await genai.models.generateContent({ model: 'gemini-vertex', contents: 'Why is the sky blue?' });
    expect(answer.text).toBe(vertexGemini.response.candidates[0].content.parts[0].text);
    expect(answer.usageMetadata).toEqual(vertexGemini.response.usageMetadata);
    expect(answer.modelVersion).toBe('gemini-2.0-flash-001');
  });

  it('a Chat Completions and a Messages client get the documented counts as their usage', async () => {
    vertex.script(vertexJson(vertexGemini.response));
    const completion = await openai.chat.completions.create({ model: 'gemini-vertex', messages: [{ role: 'user', content: 'Why is the sky blue?' }] });
    expect(completion.usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 311, total_tokens: 317 });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    vertex.script(vertexJson(vertexGemini.response));
    const message = await anthropic.messages.create({ model: 'gemini-vertex', max_tokens: 1024, messages: [{ role: 'user', content: 'Why is the sky blue?' }] });
    expect(message.usage).toMatchObject({ input_tokens: 6, output_tokens: 311 });
    expect(message.stop_reason).toBe('end_turn');
  });
});
