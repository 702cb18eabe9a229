/**
 * Which model family a video model belongs to decides how its fields are
 * read (see contract.ts `ModelKind`). Wan models (`wan…`, `wanx…`) and any
 * model served by a `wan` channel are tiered; every other model is standard.
 */
import type { ModelKind } from '../../tasks/video-contract.js';

const TIERED = /^wanx?\d|^wan-/i;
/** Wan 2.5 and later generate sound with the picture. */
const WITH_AUDIO = /^wan(2\.[5-9]|[3-9])/i;

export function kindOf(model: string, channelType?: string, upstreamModel?: string): ModelKind {
  if (channelType === 'wan') return 'tiered';
  return TIERED.test(model) || (upstreamModel !== undefined && TIERED.test(upstreamModel)) ? 'tiered' : 'standard';
}

export function generatesAudio(model: string, upstreamModel?: string): boolean {
  return WITH_AUDIO.test(model) || (upstreamModel !== undefined && WITH_AUDIO.test(upstreamModel));
}

/** The spec's default duration; the tiered family's own models start at five seconds. */
export function defaultSeconds(kind: ModelKind): number {
  return kind === 'tiered' ? 5 : 4;
}
