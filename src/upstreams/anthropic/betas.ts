/**
 * Channel setting `betas: { allow?: string[], deny?: string[] }`: which
 * `anthropic-beta` values an anthropic channel's upstream takes. Claude Code
 * sends every beta it knows; Bedrock- and Vertex-style endpoints and some
 * proxies refuse a request naming a beta they lack. Without the setting the
 * header goes as the client wrote it, byte for byte. With it, the header's
 * comma-separated values are kept in the client's order, minus those the
 * lists exclude: `allow` keeps only the names it matches, `deny` drops the
 * names it matches (deny wins). An entry ending in `*` matches by prefix
 * (`context-management-*`), since betas carry dates.
 *
 * Kept out of the adapter's modules so the registry can check the setting
 * without loading the converters.
 */
import { GatewayError } from '../../core/errors.js';
import type { Channel } from '../../core/channel.js';
import { matchesAnyModelPattern } from '../../core/model-pattern.js';

export interface BetaLists {
  allow?: readonly string[];
  deny?: readonly string[];
}

const betaName = /^[A-Za-z0-9][A-Za-z0-9._-]*\*?$|^\*$/;
const cache = new WeakMap<Record<string, unknown>, BetaLists | undefined>();

function invalid(channel: Channel, rule: string): GatewayError {
  return new GatewayError('internal', `anthropic channel ${channel.name}: setting betas${rule}`);
}

function readList(channel: Channel, lists: Record<string, unknown>, key: 'allow' | 'deny'): string[] | undefined {
  const value = lists[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && betaName.test(name)))
    throw invalid(channel, `.${key} must be a list of beta names (letters, digits, '.', '_', '-'; a trailing '*' matches by prefix)`);
  return value as string[];
}

/** The channel's beta lists, or undefined when it has none; throws a message naming the setting when malformed. */
export function readBetaLists(channel: Channel): BetaLists | undefined {
  const settings = channel.settings;
  if (cache.has(settings)) return cache.get(settings);
  const raw = settings.betas;
  let lists: BetaLists | undefined;
  if (raw !== undefined && raw !== null) {
    if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid(channel, ' must be an object with `allow` and/or `deny` lists');
    const record = raw as Record<string, unknown>;
    const unknown = Object.keys(record).find((key) => key !== 'allow' && key !== 'deny');
    if (unknown !== undefined) throw invalid(channel, ` takes only \`allow\` and \`deny\`, not \`${unknown.slice(0, 40)}\``);
    const allow = readList(channel, record, 'allow');
    const deny = readList(channel, record, 'deny');
    lists = allow || deny ? { allow, deny } : undefined;
  }
  cache.set(settings, lists);
  return lists;
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
