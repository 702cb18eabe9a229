/** Probe rows of the legacy Completions table (docs/translation/completions.md): one client field each, in the family's dialect. */
import type { Probe } from './tables.js';

const feature = (label: string, body: Record<string, unknown>, field: string | readonly string[]): Probe => ({ label, body, field });

export const completionsProbes: readonly Probe[] = [
  { label: '`prompt` (a string, or an array of one string)', body: { prompt: ['Once upon a time'] } },
  { label: '`max_tokens` (16 when absent)', body: { max_tokens: 256 } },
  { label: '`temperature`, `top_p`', body: { temperature: 0.5, top_p: 0.9 } },
  { label: '`stop`', body: { stop: ['END'] }, field: 'stop_sequences' },
  { label: '`seed`', body: { seed: 7 } },
  { label: '`presence_penalty`, `frequency_penalty`', body: { presence_penalty: 0.5, frequency_penalty: 0.5 }, field: ['presence_penalty', 'frequency_penalty'] },
  { label: '`user`', body: { user: 'user-1' } },
  feature('`prompt`: several prompts', { prompt: ['One', 'Two'] }, 'prompt'),
  feature('`prompt`: token ids', { prompt: [1734, 2201] }, 'prompt'),
  feature('`echo`', { echo: true }, 'echo'),
  feature('`suffix`', { suffix: ' The end.' }, 'suffix'),
  feature('`logprobs`', { logprobs: 2 }, 'logprobs'),
  feature('`best_of` > 1', { best_of: 3 }, 'best_of'),
  feature('`n` > 1', { n: 2 }, 'n'),
  feature('`logit_bias`', { logit_bias: { '50256': -100 } }, 'logit_bias'),
  feature('`max_tokens: 0`', { max_tokens: 0 }, 'max_tokens'),
  { label: 'unknown fields', body: { provider_extra: true }, field: 'provider_extra' },
];
