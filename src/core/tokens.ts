/**
 * Token counting with the o200k_base encoding. The encoding tables take a
 * couple of hundred milliseconds to load, so they are loaded on first use (or
 * by `preloadTokenizer()` at startup), never at import time.
 */
import { createRequire } from 'node:module';
import type { ChatRequest, ContentPart, ToolDefinition } from './chat.js';

type O200kEncoding = typeof import('gpt-tokenizer/encoding/o200k_base');

/** What an image, audio, video or binary document costs in the count: a fixed, documented figure. */
export const MEDIA_PART_TOKENS = 85;

const requireFromHere = createRequire(import.meta.url);
let encoding: O200kEncoding | undefined;

/** User text such as `<|endoftext|>` is counted as plain text, never as a special token. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

function tokenizer(): O200kEncoding {
  encoding ??= requireFromHere('gpt-tokenizer/encoding/o200k_base') as O200kEncoding;
  return encoding;
}

/** Loads the encoding tables now, so the first request does not pay for it. */
export function preloadTokenizer(): void {
  tokenizer();
}

/**
 * Byte-pair merging costs the square of one pre-token's length: a single
 * 40,000-character word takes seconds, a megabyte one most of an hour, and
 * blocks the process meanwhile. Runs of non-space (or space) characters this
 * long are counted in pieces of this size instead; text without such runs,
 * which is all ordinary text, is counted exactly as before.
 */
export const MAX_RUN_CHARS = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN_CHARS},}|\\s{${MAX_RUN_CHARS},}`, 'g');

/** `text` cut into pieces where a long run is cut into MAX_RUN_CHARS pieces (never inside a surrogate pair). */
function pieces(text: string): string[] {
  if (text.length < MAX_RUN_CHARS) return [text];
  const out: string[] = [];
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const end = match.index + match[0].length;
    for (let start = match.index; start < end; ) {
      let stop = Math.min(start + MAX_RUN_CHARS, end);
      const code = text.charCodeAt(stop - 1);
      if (stop < end && code >= 0xd800 && code <= 0xdbff) stop--;
      out.push(text.slice(start, stop));
      start = stop;
    }
    last = end;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  let total = 0;
  for (const piece of pieces(text)) total += tokenizer().countTokens(piece, PLAIN_TEXT);
  return total;
}

/**
 * The longest prefix of `text` that is at most `maxTokens` tokens. Never ends
 * in half a character: a prefix that splits a multi-byte character is shortened.
 */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return '';
  const { encode, decode } = tokenizer();
  const tokens = pieces(text).flatMap((piece) => encode(piece, PLAIN_TEXT));
  if (tokens.length <= maxTokens) return text;
  for (let keep = maxTokens; keep > 0; keep--) {
    let prefix = decode(tokens.slice(0, keep));
    while (prefix.length > 0 && !text.startsWith(prefix)) prefix = prefix.slice(0, -1);
    // Re-encoding a cut word can, rarely, take more tokens than it was cut from.
    if (countTokens(prefix) <= maxTokens) return prefix;
  }
  return '';
}

function partTokens(part: ContentPart): number {
  switch (part.type) {
    case 'text':
      return countTokens(part.text);
    case 'media':
      return part.text === undefined ? MEDIA_PART_TOKENS : countTokens(part.text);
    case 'tool_call':
      return countTokens(part.name) + countTokens(JSON.stringify(part.input));
    case 'tool_result': {
      let total = 0;
      for (const inner of part.content) total += partTokens(inner);
      return total;
    }
    case 'thinking':
      return countTokens(part.text);
  }
}

function toolTokens(tool: ToolDefinition): number {
  if (tool.type === 'builtin') return countTokens(JSON.stringify(tool.raw));
  return countTokens(tool.name) + countTokens(tool.description ?? '') + countTokens(JSON.stringify(tool.parameters));
}

/**
 * The prompt size of a request: system text, every message part (media at
 * MEDIA_PART_TOKENS each, plain-text documents by their text) and the tool
 * definitions. Per-message framing overhead is not counted.
 */
export function countRequestTokens(req: ChatRequest): number {
  let total = countTokens(req.system ?? '');
  for (const message of req.messages) {
    for (const part of message.content) total += partTokens(part);
  }
  for (const tool of req.tools ?? []) total += toolTokens(tool);
  return total;
}
