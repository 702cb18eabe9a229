/**
 * What the benchmark measures, per API family: direct calls to the fake
 * upstream, the reference floor proxy (family C), and the gateway's native
 * and translated paths, plain and streaming. A proxied target names the
 * direct target it is compared with (`baseline`).
 */
import { CLIENT_HEADERS, GEMINI_CLIENT_HEADERS, RESPONSES_CLIENT_HEADERS, chatBody, generateContentBody, generateContentPath, messagesBody, responsesBody } from './gateway.mjs';

/** The gateway's two paths per family, for the verdicts. */
export const FAMILIES = {
  C: { title: 'C, Messages (`POST /v1/messages`)', native: 'gateway-pass', translated: 'gateway-translated', nativeName: 'pass-through' },
  D: { title: 'D, content generation (`:generateContent`)', native: 'gateway-gem-native', translated: 'gateway-gem-translated', nativeName: 'native' },
  E: { title: 'E, Responses (`POST /v1/responses`)', native: 'gateway-resp-native', translated: 'gateway-resp-translated', nativeName: 'native' },
  F: { title: 'F, Chat Completions (`POST /v1/chat/completions`)', native: 'gateway-chat-pass', translated: 'gateway-chat-translated', nativeName: 'pass-through' },
};

/** `BENCH_FAMILIES` ("C,D,E,F" by default) → the selected families, in C, D, E order. */
export function parseFamilies(text) {
  const wanted = new Set(
    (text ?? '')
      .toUpperCase()
      .split(/[\s,]+/)
      .filter(Boolean),
  );
  if (wanted.size === 0) return Object.keys(FAMILIES);
  for (const name of wanted) if (!FAMILIES[name]) throw new Error(`BENCH_FAMILIES: unknown family "${name}" (known: ${Object.keys(FAMILIES).join(', ')})`);
  return Object.keys(FAMILIES).filter((name) => wanted.has(name));
}

/** Substrings a complete, successful answer contains, per answer dialect. */
const COMPLETE = {
  messages: { plain: ['"type":"message"', 'Hello'], stream: ['message_stop', 'Hello'] },
  chat: { plain: ['"chat.completion"', 'Hello'], stream: ['[DONE]', 'Hello'] },
  gemini: { plain: ['"usageMetadata"', '"finishReason":"STOP"', 'Hello'], stream: ['"finishReason":"STOP"', '"usageMetadata"', 'Hello'] },
  responses: { plain: ['"object":"response"', '"status":"completed"', 'Hello'], stream: ['response.completed', 'Hello'] },
};

/**
 * Every target of the selected families, plain ones first. The direct
 * `/chat/completions` rows (the baseline of every translated path) are
 * measured once, under the first selected family.
 */
export function defineTargets({ families, upstreamUrl, gatewayUrl, floorUrl }) {
  const targets = [];
  for (const stream of [false, true]) {
    const suffix = stream ? '-stream' : '';
    const label = (text) => `${text}${stream ? ', stream' : ''}`;
    const add = (family, dialect, target) => targets.push({ family, stream, expect: COMPLETE[dialect][stream ? 'stream' : 'plain'], server: 'upstream', wrk: !stream && family === 'C', ...target });
    const chatBaseline = `direct-chat${suffix}`;
    families.forEach((family, index) => {
      if (index === 0) {
        add(family, 'chat', {
          key: chatBaseline,
          label: label('direct upstream /v1/chat/completions'),
          url: `${upstreamUrl}/v1/chat/completions`,
          headers: {},
          body: chatBody('translated-model', stream),
        });
      }
      const gateway = (dialect, target) => add(family, dialect, { server: 'gateway', gateway: true, wrk: !stream, ...target });
      if (family === 'C') {
        const direct = `direct-messages${suffix}`;
        add('C', 'messages', { key: direct, label: label('direct upstream /v1/messages'), url: `${upstreamUrl}/v1/messages`, headers: {}, body: messagesBody('pass-model', stream) });
        add('C', 'messages', {
          key: `floor${suffix}`,
          label: label('reference floor (node:http + undici Pool)'),
          url: `${floorUrl}/v1/messages`,
          headers: {},
          body: messagesBody('pass-model', stream),
          baseline: direct,
          server: 'floor',
        });
        gateway('messages', {
          key: `gateway-pass${suffix}`,
          label: label('gateway pass-through'),
          url: `${gatewayUrl}/v1/messages`,
          headers: CLIENT_HEADERS,
          body: messagesBody('pass-model', stream),
          baseline: direct,
        });
        gateway('messages', {
          key: `gateway-translated${suffix}`,
          label: label('gateway translated (→ chat)'),
          url: `${gatewayUrl}/v1/messages`,
          headers: CLIENT_HEADERS,
          body: messagesBody('translated-model', stream),
          baseline: chatBaseline,
        });
      } else if (family === 'D') {
        const direct = `direct-gemini${suffix}`;
        add('D', 'gemini', {
          key: direct,
          label: label('direct upstream :generateContent'),
          url: `${upstreamUrl}${generateContentPath('gem-native', stream)}`,
          headers: {},
          body: generateContentBody(),
        });
        gateway('gemini', {
          key: `gateway-gem-native${suffix}`,
          label: label('gateway native (gemini)'),
          url: `${gatewayUrl}${generateContentPath('gem-native', stream)}`,
          headers: GEMINI_CLIENT_HEADERS,
          body: generateContentBody(),
          baseline: direct,
        });
        gateway('gemini', {
          key: `gateway-gem-translated${suffix}`,
          label: label('gateway translated (→ chat)'),
          url: `${gatewayUrl}${generateContentPath('gem-translated', stream)}`,
          headers: GEMINI_CLIENT_HEADERS,
          body: generateContentBody(),
          baseline: chatBaseline,
        });
      } else if (family === 'E') {
        const direct = `direct-responses${suffix}`;
        add('E', 'responses', { key: direct, label: label('direct upstream /v1/responses'), url: `${upstreamUrl}/v1/responses`, headers: {}, body: responsesBody('resp-native', stream) });
        gateway('responses', {
          key: `gateway-resp-native${suffix}`,
          label: label('gateway native (openai-responses)'),
          url: `${gatewayUrl}/v1/responses`,
          headers: RESPONSES_CLIENT_HEADERS,
          body: responsesBody('resp-native', stream),
          baseline: direct,
        });
        if (!stream) {
          // What storing costs: the same request with the default `store: true` (the gateway records every answer).
          gateway('responses', {
            key: 'gateway-resp-native-store',
            label: 'gateway native (openai-responses), store: true',
            url: `${gatewayUrl}/v1/responses`,
            headers: RESPONSES_CLIENT_HEADERS,
            body: responsesBody('resp-native', false, true),
            baseline: direct,
            wrk: false,
          });
        }
        gateway('responses', {
          key: `gateway-resp-translated${suffix}`,
          label: label('gateway translated (→ chat)'),
          url: `${gatewayUrl}/v1/responses`,
          headers: RESPONSES_CLIENT_HEADERS,
          body: responsesBody('resp-translated', stream),
          baseline: chatBaseline,
        });
      } else if (family === 'F') {
        // The translated path goes to an anthropic channel, so its baseline is the direct /v1/messages call.
        const directMessages = `direct-messages${suffix}`;
        if (!families.includes('C'))
          add('F', 'messages', { key: directMessages, label: label('direct upstream /v1/messages'), url: `${upstreamUrl}/v1/messages`, headers: {}, body: messagesBody('pass-model', stream) });
        gateway('chat', {
          key: `gateway-chat-pass${suffix}`,
          label: label('gateway pass-through (openai-chat)'),
          url: `${gatewayUrl}/v1/chat/completions`,
          headers: RESPONSES_CLIENT_HEADERS,
          body: chatBody('translated-model', stream),
          baseline: chatBaseline,
        });
        if (stream) {
          // The common stream: the client did not ask for usage, so the gateway asks for it and hides that chunk.
          const body = { ...chatBody('translated-model', true), stream_options: undefined };
          gateway('chat', {
            key: 'gateway-chat-pass-hidden-usage-stream',
            label: 'gateway pass-through (openai-chat), stream without include_usage',
            url: `${gatewayUrl}/v1/chat/completions`,
            headers: RESPONSES_CLIENT_HEADERS,
            body,
            baseline: chatBaseline,
          });
        }
        gateway('chat', {
          key: `gateway-chat-translated${suffix}`,
          label: label('gateway translated (→ anthropic)'),
          url: `${gatewayUrl}/v1/chat/completions`,
          headers: RESPONSES_CLIENT_HEADERS,
          body: chatBody('pass-model', stream),
          baseline: directMessages,
        });
      }
    });
  }
  return targets;
}

/** The targets shown under one family: its own, plus the baselines measured under another family. */
export function targetsOfFamily(targets, family) {
  const own = targets.filter((t) => t.family === family);
  const needed = new Set(own.map((t) => t.baseline).filter(Boolean));
  return targets.filter((t) => t.family === family || needed.has(t.key));
}
