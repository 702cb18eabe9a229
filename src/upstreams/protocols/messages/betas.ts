/**
 * Channel setting `betas: { allow?: string[], deny?: string[] }`: which
 * `anthropic-beta` values the upstream of a Messages channel takes. Claude Code
 * sends every beta it knows; Bedrock- and Vertex-style endpoints and some
 * proxies refuse a request naming a beta they lack. Without the setting the
 * header goes as the client wrote it, byte for byte. With it, the header's
 * comma-separated values are kept in the client's order, minus those the
 * lists exclude: `allow` keeps only the names it matches, `deny` drops the
 * names it matches (deny wins). An entry ending in `*` matches by prefix
 * (`context-management-*`), since betas carry dates.
 *
 * The lists' rules are the schema's (settings.ts): a malformed value never
 * reaches here.
 */
import { matchesAnyModelPattern } from '../../../core/model-pattern.js';
import type { MessagesSettings } from './settings.js';

export interface BetaLists {
  allow?: readonly string[];
  deny?: readonly string[];
}

/** The channel's beta lists, or undefined when it filters nothing. */
export function readBetaLists(settings: Pick<MessagesSettings, 'betas'>): BetaLists | undefined {
  const lists = settings.betas;
  return lists?.allow || lists?.deny ? { allow: lists.allow, deny: lists.deny } : undefined;
}

/**
 * The `anthropic-beta` value to send: `header` untouched when the channel
 * filters nothing, else the values the lists keep, in order, joined by
 * commas; undefined when none is left (the header is then not sent).
 */
export function filteredBetas(header: string | undefined, lists: BetaLists | undefined): string | undefined {
  if (header === undefined || !lists) return header;
  const kept = header
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && betaAllowed(name, lists));
  return kept.length === 0 ? undefined : kept.join(',');
}

function betaAllowed(name: string, lists: BetaLists): boolean {
  if (lists.deny && matchesAnyModelPattern(lists.deny, name)) return false;
  return !lists.allow || matchesAnyModelPattern(lists.allow, name);
}
