/**
 * The Messages dialect's request headers, without the credential (a
 * provider's endpoint adds its own).
 *
 * Pass-through follows Claude Code's gateway protocol reference: every
 * `anthropic-*` request header (`anthropic-version`, `anthropic-beta`,
 * `anthropic-workspace-id`, and whatever new ones appear) is forwarded
 * unchanged; the credential is the channel's. Nothing else of the client's is
 * forwarded (session and attribution headers such as `x-claude-code-session-id`
 * are the gateway's to consume). A channel's `betas` lists (betas.ts) filter
 * `anthropic-beta` on both paths, for upstreams that refuse some betas.
 */
import type { UpstreamCall } from '../../types.js';
import { filteredBetas, type BetaLists } from './betas.js';

export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';
const datedVersion = /^\d{4}-\d{2}-\d{2}$/;

function joined(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * Translation path: the client's dated `anthropic-version` (anything else
 * falls back to 2023-06-01); the client's `anthropic-beta` list, plus any
 * betas the translation itself needs, filtered by the channel's `lists`.
 */
export function messagesHeaders(call: UpstreamCall, extraBetas: readonly string[], lists: BetaLists | undefined): Record<string, string> {
  const clientVersion = joined(call.clientHeaders['anthropic-version'])?.trim();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': clientVersion && datedVersion.test(clientVersion) ? clientVersion : DEFAULT_ANTHROPIC_VERSION,
  };
  const clientBeta = joined(call.clientHeaders['anthropic-beta']);
  const wanted = extraBetas.length === 0 ? clientBeta : [clientBeta, ...extraBetas].filter(Boolean).join(',');
  const betas = filteredBetas(wanted, lists);
  if (betas) headers['anthropic-beta'] = betas;
  return headers;
}

/** Pass-through path: the client's `anthropic-*` headers as they came (`anthropic-beta` filtered by the channel's `lists`), a version when the client sent none. */
export function passThroughHeaders(call: Pick<UpstreamCall, 'clientHeaders'>, lists: BetaLists | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const client = call.clientHeaders;
  // A for-in over the names, not Object.entries: no array of pairs per request.
  for (const name in client) {
    const lower = name.toLowerCase();
    if (!lower.startsWith('anthropic-')) continue;
    const text = joined(client[name]);
    if (text !== undefined) headers[lower] = text;
  }
  headers['anthropic-version'] ??= DEFAULT_ANTHROPIC_VERSION;
  if (lists) {
    const betas = filteredBetas(headers['anthropic-beta'], lists);
    if (betas === undefined) delete headers['anthropic-beta'];
    else headers['anthropic-beta'] = betas;
  }
  return headers;
}
