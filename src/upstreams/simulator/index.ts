/**
 * The built-in `simulator` upstream: answers every model name in-process,
 * deterministically, so each chat family can be tried offline. Behaviour and
 * channel settings are described in README.md next to this file.
 */
import type { ChatRequest } from '../../core/chat.js';
import { upstreamStatusError } from '../../core/errors.js';
import type { ChatResult, UpstreamAdapter, UpstreamCall } from '../types.js';
import { simulateAnswer } from './answer.js';
import { prepareSimulator, type SimulatorPrepared } from './capabilities.js';
import { countDeltas } from './events.js';
import { readSimulatorSettings, type SimulatorChannelSettings } from './settings.js';
import { brokenStreamError, streamAnswer } from './stream.js';
import { throwIfAborted, waitForUpstream } from './timing.js';
import { simulateEmbeddings } from './embed.js';
import { simulateRerank } from './rerank.js';
import { simulateModeration } from './moderate.js';
import { simulateImages } from './image-generations.js';
import { simulateAudio, simulatedAudioRefusal } from './audio.js';

async function chat({ body: request }: SimulatorPrepared, _request: ChatRequest, call: UpstreamCall): Promise<ChatResult> {
  const settings = readSimulatorSettings(call.channel);
  throwIfAborted(call.signal);
  await waitForUpstream(settings.latencyMs, call.timeoutMs, call.signal);
  if (settings.failStatus !== undefined) throw upstreamStatusError(settings.failStatus, 'simulated upstream failure');
  const answer = simulateAnswer(request, call.upstreamModel);
  if (request.stream) return { stream: true, events: streamAnswer(answer, settings, call.signal) };

  // A plain answer arrives once the whole stream would have been generated.
  const chunks = countDeltas(answer);
  const remainingTimeout = call.timeoutMs > 0 ? Math.max(1, call.timeoutMs - settings.latencyMs) : 0;
  await waitForUpstream(settings.tokenDelayMs * Math.max(0, chunks - 1), remainingTimeout, call.signal);
  if (settings.failAfterChunks !== undefined && chunks > settings.failAfterChunks) throw brokenStreamError(settings.failAfterChunks);
  return { stream: false, response: answer };
}

/** Its settings are read per call (`readSimulatorSettings`): nothing of them shapes what it answers. */
export const simulatorAdapter: UpstreamAdapter<SimulatorChannelSettings, SimulatorPrepared> = {
  type: 'simulator',
  prepare: prepareSimulator,
  chat,
  embed: simulateEmbeddings,
  // Every simulator channel serves these, whatever model it is asked for.
  rerank: { offered: () => true, serve: simulateRerank },
  moderations: { offered: () => true, serve: simulateModeration },
  images: { offered: () => true, serve: simulateImages },
  audio: { offered: () => true, refusal: simulatedAudioRefusal, serve: simulateAudio },
};
