/**
 * A channel type served by several protocol parts (upstreams/multi-protocol.ts):
 * the pipeline passes a client's bytes through to the part that speaks its
 * dialect for the channel's model, and prepares and sends a translated
 * request with the part the provider names for that model.
 */
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../src/core/channel.js';
import { serveChat } from '../../src/pipeline/chat-pipeline.js';
import { multiProtocolAdapter } from '../../src/upstreams/multi-protocol.js';
import { nativeAdapter } from '../../src/upstreams/native-adapter.js';
import { WholeBody } from '../../src/upstreams/whole-body.js';
import type { UpstreamAdapter } from '../../src/upstreams/types.js';
import { adapter, channel, chatCall, codec, recordingOutput, services, usage, type ScriptedAdapter } from './fakes.js';

const script = (type: string, parts: Partial<ScriptedAdapter> = {}): ScriptedAdapter => ({ type, calls: 0, ...parts });

/** A part that passes Messages bytes through (the fakes' native dialect), and one that only translates. */
function cloud() {
  const messagesPart = script('cloud', {
    passThrough: async () => ({ status: 200, contentType: 'application/json', body: new WholeBody(Buffer.from('{"native":true}')), usage: () => usage }),
    chat: async () => ({ stream: false, response: { id: 'r', model: 'm', content: [{ type: 'text', text: 'from the messages part' }], finishReason: 'stop', usage } }),
  });
  const otherPart = script('cloud', {
    chat: async () => ({ stream: false, response: { id: 'r', model: 'm', content: [{ type: 'text', text: 'from the other part' }], finishReason: 'stop', usage } }),
  });
  const parts = { messages: adapter(messagesPart), other: { ...adapter(otherPart), nativeDialect: undefined } as UpstreamAdapter };
  const composite = multiProtocolAdapter({
    type: 'cloud',
    translatedBy: (model) => (model.startsWith('claude') ? parts.messages : parts.other),
    nativeBy: (dialect, model) => (dialect === 'messages' && model.startsWith('claude') ? parts.messages : undefined),
  }) as UpstreamAdapter;
  return { composite, messagesPart, otherPart };
}

const mapped = (model: string): Channel => ({ ...channel('cloud'), modelMapping: { m: model } });

describe('a channel type with several protocol parts', () => {
  it('passes a Messages client through to the part that speaks Messages for the model', async () => {
    const { composite, messagesPart, otherPart } = cloud();
    const run = services([mapped('claude-sonnet')], [composite]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(false), codec, output);
    expect(output.body).toBe('{"native":true}');
    expect(messagesPart.calls).toBe(1);
    expect(messagesPart.prepared).toBeUndefined();
    expect(otherPart.calls).toBe(0);
  });

  it('translates for a model no part speaks the client dialect of, preparing and sending with the same part', async () => {
    const { composite, messagesPart, otherPart } = cloud();
    const run = services([mapped('gemini-pro')], [composite]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(false), codec, output);
    expect(JSON.parse(output.body!)).toEqual({ text: 'from the other part' });
    expect(otherPart.prepared).toBe(1);
    expect(otherPart.calls).toBe(1);
    expect(messagesPart.calls).toBe(0);
  });

  it('answers which part is native per dialect and model, and a single-dialect adapter by its nativeDialect', () => {
    const { composite } = cloud();
    expect(nativeAdapter(composite, 'messages', mapped('claude-x'), 'm')).toBeDefined();
    expect(nativeAdapter(composite, 'messages', mapped('gemini-x'), 'm')).toBeUndefined();
    expect(nativeAdapter(composite, 'generate', mapped('claude-x'), 'm')).toBeUndefined();
    const single = adapter(script('single', { passThrough: async () => ({ status: 200, contentType: 'application/json', body: new WholeBody(Buffer.from('{}')), usage: () => usage }) }));
    expect(nativeAdapter(single, 'messages', channel('single'), 'm')).toBe(single);
    expect(nativeAdapter(single, 'generate', channel('single'), 'm')).toBeUndefined();
  });
});
