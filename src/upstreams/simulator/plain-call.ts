/** What every simulated plain answer (rerank, moderations) does first: the channel's latency, then its simulated failure. */
import { upstreamStatusError } from '../../core/errors.js';
import type { UpstreamCall } from '../types.js';
import { readSimulatorSettings } from './settings.js';
import { throwIfAborted, waitForUpstream } from './timing.js';

export async function simulatedCall(call: UpstreamCall): Promise<void> {
  const settings = readSimulatorSettings(call.channel);
  throwIfAborted(call.signal);
  await waitForUpstream(settings.latencyMs, call.timeoutMs, call.signal);
  if (settings.failStatus !== undefined) throw upstreamStatusError(settings.failStatus, 'simulated upstream failure');
}
