/**
 * What the operator is told at start about the built-in simulator. An
 * explicit `simulator: true` (or SWITCHYARD_SIMULATOR=on) once made the
 * built-in simulator answer every model no channel served, real channels or
 * not; it no longer does beside a provider's channel (it would answer in the
 * name of a real model), so such a setting gets a warning saying what to do.
 */
import type { ChannelRegistry } from './channel-registry.js';

export const SIMULATOR_BESIDE_CHANNELS_WARNING =
  'simulator is on (simulator: true or SWITCHYARD_SIMULATOR=on), but provider channels are configured, so the built-in simulator serves nothing ' +
  'and a model no channel serves is a 404. To simulate models beside real ones, add a channel of type simulator listing them ' +
  '(config file: { name: sim, type: simulator, models: [demo-model] }; CLI: switchyard channels add --name sim --type simulator --models demo-model).';

/** The start-up warning for an explicit setting the channels overrule, if any. */
export function simulatorSettingWarning(explicit: boolean | undefined, channels: ChannelRegistry): string | undefined {
  return explicit === true && channels.providerChannelCount > 0 ? SIMULATOR_BESIDE_CHANNELS_WARNING : undefined;
}

/** The start-up line saying who serves a model no channel lists. */
export function simulatorStartupLine(channels: ChannelRegistry): string {
  if (channels.isDefaultSimulator) return 'No channel configured: the built-in simulator serves every model.';
  if (channels.hasSimulatorFallback) return 'Only simulator channels configured: the built-in simulator serves every model they do not.';
  if (channels.providerChannelCount > 0) return 'Provider channels configured: a model no channel serves is a 404 (add a channel of type simulator to simulate models).';
  return 'The built-in simulator is off: a model no channel serves is a 404.';
}
