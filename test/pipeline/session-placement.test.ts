/**
 * Session placement in the chat pipeline, without a server: nothing is read
 * from the body when there is nothing to choose (the upstream still gets a
 * session named by a header); with a choice, the pinned channel is tried
 * first and the pinned key used; the session is pinned where it was served.
 */
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../src/core/channel.js';
import { serveChat } from '../../src/pipeline/chat-pipeline.js';
import { sessionKeyOf } from '../../src/pipeline/session-key.js';
import { keyFingerprint } from '../../src/routing/health.js';
import { SessionAffinity } from '../../src/routing/session-affinity.js';
import type { UpstreamCall } from '../../src/upstreams/types.js';
import { adapter, channel, chatCall, codec, recordingOutput, services, usage, type ScriptedAdapter } from './fakes.js';

const answering = (type: string): ScriptedAdapter => ({
  type,
  calls: 0,
  chat: async () => ({ stream: false, response: { id: 'r', model: 'm', content: [{ type: 'text', text: 'ok' }], finishReason: 'stop', usage } }),
});

function withKeys(item: Channel, keys: string[]): Channel {
  return { ...item, apiKeys: keys };
}

/** Services with affinity, recording the upstream calls made. */
function setup(channels: Channel[], scripts: ScriptedAdapter[]) {
  const recorded = services(channels, scripts.map(adapter));
  const affinity = new SessionAffinity({ maxSessions: 100, idleMs: 60_000 });
  const calls: UpstreamCall[] = [];
  const upstreamCall = recorded.services.upstreamCall;
  const chatServices = {
    ...recorded.services,
    affinity,
    upstreamCall: (...args: Parameters<typeof upstreamCall>) => {
      const made = { ...upstreamCall(...args), sessionKey: args[1].sessionKey };
      calls.push(made);
      return made;
    },
  };
  return { chatServices, affinity, calls };
}

describe('session placement', () => {
  it('reads nothing from the body with one channel of one key; a session header still reaches the upstream call', async () => {
    const only = answering('a');
    const { chatServices, affinity, calls } = setup([withKeys(channel('a'), ['k1'])], [only]);
    const call = { ...chatCall(false), headers: { 'x-claude-code-session-id': 'abc' } };
    call.sessionHint = () => {
      throw new Error('the body was read');
    };
    await serveChat(chatServices, call, codec, recordingOutput());
    expect(only.calls).toBe(1);
    expect(calls[0].sessionKey).toMatch(/^[\w-]{22}$/);
    expect(affinity.size).toBe(0);
  });

  it('tries the pinned channel first and pins the session where it was served', async () => {
    const first = answering('a');
    const second = answering('b');
    const { chatServices, affinity, calls } = setup([channel('a'), channel('b')], [first, second]);
    const call = { ...chatCall(false), sessionHint: () => 'prefix:the conversation' };
    const session = sessionKeyOf(call)!;
    affinity.served(session, { channelId: 'ch_b', key: '' });
    await serveChat(chatServices, call, codec, recordingOutput());
    expect([first.calls, second.calls]).toEqual([0, 1]);
    expect(calls[0].sessionKey).toBe(session);
  });

  it('uses the pinned key of a channel with several, instead of the rotation', async () => {
    const only = answering('a');
    const { chatServices, affinity, calls } = setup([withKeys(channel('a'), ['k1', 'k2', 'k3'])], [only]);
    const call = () => ({ ...chatCall(false), sessionHint: () => 'prefix:the conversation' });
    affinity.served(sessionKeyOf(call())!, { channelId: 'ch_a', key: keyFingerprint('k3') });
    for (let turn = 0; turn < 3; turn++) await serveChat(chatServices, call(), codec, recordingOutput());
    expect(calls.map((made) => made.apiKey)).toEqual(['k3', 'k3', 'k3']);
  });

  it('a new session is pinned to the key the rotation gave it', async () => {
    const only = answering('a');
    const { chatServices, calls } = setup([withKeys(channel('a'), ['k1', 'k2'])], [only]);
    const call = (name: string) => ({ ...chatCall(false), sessionHint: () => `prefix:${name}` });
    await serveChat(chatServices, call('one'), codec, recordingOutput());
    await serveChat(chatServices, call('two'), codec, recordingOutput());
    for (let turn = 0; turn < 2; turn++) {
      await serveChat(chatServices, call('one'), codec, recordingOutput());
      await serveChat(chatServices, call('two'), codec, recordingOutput());
    }
    expect(calls.map((made) => made.apiKey)).toEqual(['k1', 'k2', 'k1', 'k2', 'k1', 'k2']);
  });
});
