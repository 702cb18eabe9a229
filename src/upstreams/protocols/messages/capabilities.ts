/**
 * What the `anthropic` upstream can do with a translated request (see
 * upstreams/plan.ts); convert-request.ts decides each field by it as it
 * builds the body.
 */
import type { TranslationCapabilities } from '../../plan.js';
import { anthropicBuiltinTools } from './builtin-tools.js';
import type { MessagesSettings } from './settings.js';

export const anthropicCapabilities: TranslationCapabilities = {
  dialect: 'messages',
  // Only a Messages request carries it, and Messages clients take the pass-through path; declared for coherence.
  features: new Set(['mcp_servers']),
  builtinTools: anthropicBuiltinTools,
  builtinCapabilities: new Set(['web_search', 'web_fetch', 'code_execution']),
  missingSampling: new Set(['seed', 'presencePenalty', 'frequencyPenalty']),
  // Many Anthropic-compatible servers refuse system-role messages: system turns join the system prompt.
  systemTurns: 'mapped',
  // A thinking budget by effort, which every thinking model takes; see `anthropicCapabilitiesFor`.
  adaptiveThinking: 'mapped',
  promptCache: {
    marks: 'cache_control breakpoints (at most 4: the last ones)',
    key: 'breakpoints placed by the gateway',
    retention: "the breakpoints' lifetime (24h: one hour, else five minutes)",
  },
};

/** A channel with `cacheBreakpoints: false` places none of the gateway's own: a cache key or retention then does nothing. */
const withoutGatewayBreakpoints: TranslationCapabilities['promptCache'] = { marks: anthropicCapabilities.promptCache!.marks };

/**
 * The capabilities as a channel's settings shape them. Channel setting
 * `adaptiveThinking: true`: the channel's models take `thinking: {type:
 * "adaptive"}` (the newest ones take nothing else), so thinking is sent that
 * way, with `output_config.effort`.
 */
export function anthropicCapabilitiesFor(settings: MessagesSettings): TranslationCapabilities {
  if (!settings.adaptiveThinking && settings.cacheBreakpoints) return anthropicCapabilities;
  const caps: TranslationCapabilities = { ...anthropicCapabilities };
  if (settings.adaptiveThinking) caps.adaptiveThinking = 'native';
  if (!settings.cacheBreakpoints) caps.promptCache = withoutGatewayBreakpoints;
  return caps;
}
