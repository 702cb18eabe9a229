/** Paces the simulated events: token delays, aborts and deliberately broken streams. */
import type { CallSignal } from '../../core/call-signal.js';
import type { ChatEvent, ChatResponse } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { answerEvents, isDelta } from './events.js';
import type { SimulatorSettings } from './settings.js';
import { sleep, throwIfAborted } from './timing.js';

export function brokenStreamError(chunks: number): GatewayError {
  return new GatewayError('upstream_error', `simulated upstream stream broke after ${chunks} chunks`, { retryable: false });
}

/** Timers are used only when `tokenDelayMs` > 0; otherwise events flow without any wait. */
export async function* streamAnswer(answer: ChatResponse, settings: SimulatorSettings, signal: CallSignal): AsyncGenerator<ChatEvent> {
  const { tokenDelayMs, failAfterChunks } = settings;
  let delivered = 0;
  for (const event of answerEvents(answer)) {
    if (isDelta(event)) {
      if (failAfterChunks !== undefined && delivered >= failAfterChunks) throw brokenStreamError(delivered);
      if (tokenDelayMs > 0 && delivered > 0) await sleep(tokenDelayMs, signal);
      delivered++;
    }
    throwIfAborted(signal);
    yield event;
  }
}
