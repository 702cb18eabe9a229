/**
 * Converts Messages content blocks into the internal content parts.
 *
 * Blocks the internal representation has no place for are decided here and
 * written down in the request's notes (see to-core-notes.ts):
 * - `search_result` becomes text (its title, source and text);
 * - `tool_reference` (a tool search result) becomes text naming the tool: a
 *   translated request offers every tool loaded, so the reference adds only the name;
 * - any other block in an assistant turn (`server_tool_use`, `*_tool_result`,
 *   `mcp_tool_*`: records of tools the provider ran) is dropped, a hint: its
 *   effect is in the text after it;
 * - any other block in a user turn is a feature (`content block <type>`) no
 *   translation honours, so the request is refused rather than answered without it.
 * A block's `cache_control` becomes the cache mark of the part it became (the
 * last one, for a document that became several; a tool result's inner marks
 * mark the tool result); thinking carries none, as in Anthropic's API. The
 * system prompt's and the tools' marks are read by to-core-notes.ts.
 */
import type { ContentPart, MediaPart, TextPart } from '../../core/chat.js';
import { cacheMarkOf } from '../../dialects/messages/cache-control.js';
import { longerMark } from '../../core/prompt-cache.js';
import type { RequestNotes } from './to-core-notes.js';
import { isKnownBlock, type ContentBlock, type DocumentBlock, type ImageBlock, type KnownContentBlock, type OtherBlock, type TextBlock, type ToolResultBlock } from '../../dialects/messages/schema.js';

export type TurnRole = 'user' | 'assistant' | 'system';

export function blocksToParts(content: string | ContentBlock[], into: ContentPart[], role: TurnRole, notes: RequestNotes): void {
  if (typeof content === 'string') {
    if (content.length > 0) into.push({ type: 'text', text: content });
    return;
  }
  for (const block of content) {
    if (isKnownBlock(block)) into.push(...withMark(knownBlockToParts(block, notes), block));
    else {
      const part = otherBlockToPart(block, role, notes);
      if (part) into.push(part);
    }
  }
}

function knownBlockToParts(block: KnownContentBlock, notes: RequestNotes): ContentPart[] {
  switch (block.type) {
    case 'text':
      return [textPart(block)];
    case 'image':
      return [imagePart(block)];
    case 'document':
      return documentParts(block);
    case 'tool_use':
      return [{ type: 'tool_call', id: block.id, name: block.name, input: block.input }];
    case 'tool_result':
      return [toolResultPart(block, notes)];
    case 'thinking':
      return [{ type: 'thinking', text: block.thinking, ...(block.signature ? { signature: block.signature } : {}) }];
    case 'redacted_thinking':
      return [{ type: 'thinking', text: '', redactedData: block.data }];
  }
}

/** The block's cache mark on the last part it became (where the prefix it marks ends). */
function withMark(parts: ContentPart[], block: KnownContentBlock): ContentPart[] {
  const last = parts.at(-1);
  let mark = cacheMarkOf(block);
  if (block.type === 'tool_result' && Array.isArray(block.content)) for (const inner of block.content) mark = longerMark(mark, cacheMarkOf(inner));
  if (mark && last && last.type !== 'thinking') last.cache = mark;
  return parts;
}

/** A block of a type the gateway does not convert as such (see the header). */
function otherBlockToPart(block: OtherBlock, role: TurnRole, notes: RequestNotes): TextPart | undefined {
  if (block.type === 'search_result') return searchResultText(block);
  if (block.type === 'tool_reference') return { type: 'text', text: `Tool available: ${String(block.tool_name ?? '')}` };
  const field = `content block ${block.type}`;
  if (role === 'assistant') notes.hints[field] = true;
  else notes.features[field] = true;
  return undefined;
}

function searchResultText(block: OtherBlock): TextPart {
  const lines: string[] = [];
  if (typeof block.title === 'string' && block.title) lines.push(block.title);
  if (typeof block.source === 'string' && block.source) lines.push(block.source);
  const content = Array.isArray(block.content) ? block.content : [];
  for (const inner of content as Array<{ type?: unknown; text?: unknown }>) {
    if (inner?.type === 'text' && typeof inner.text === 'string') lines.push(inner.text);
  }
  return { type: 'text', text: lines.join('\n') };
}

function textPart(block: TextBlock): TextPart {
  return block.citations ? { type: 'text', text: block.text, citations: block.citations } : { type: 'text', text: block.text };
}

function imagePart(block: ImageBlock): MediaPart {
  const source = block.source;
  if (source.type === 'base64') return { type: 'media', mediaType: source.media_type, data: source.data };
  return { type: 'media', mediaType: imageTypeFromUrl(source.url), url: source.url };
}

const imageExtensions: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** A URL source names no media type; the file extension is the best hint, else any image type. */
export function imageTypeFromUrl(url: string): string {
  const path = url.split(/[?#]/, 1)[0];
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return imageExtensions[extension] ?? 'image/*';
}

/**
 * A document becomes one media part. A `content` document (text and image
 * blocks) becomes a plain-text document of its text, followed by its images.
 * `context` and `citations` settings have no internal counterpart and are not carried.
 */
function documentParts(block: DocumentBlock): MediaPart[] {
  const title = block.title ? { title: block.title } : {};
  const source = block.source;
  switch (source.type) {
    case 'base64':
      return [{ type: 'media', mediaType: source.media_type, data: source.data, ...title }];
    case 'text':
      return [{ type: 'media', mediaType: 'text/plain', text: source.data, ...title }];
    case 'url':
      return [{ type: 'media', mediaType: 'application/pdf', url: source.url, ...title }];
    case 'content': {
      if (typeof source.content === 'string') return [{ type: 'media', mediaType: 'text/plain', text: source.content, ...title }];
      const texts: string[] = [];
      const images: MediaPart[] = [];
      for (const inner of source.content) {
        if (inner.type === 'text') texts.push(inner.text);
        else images.push(imagePart(inner));
      }
      const parts: MediaPart[] = texts.length ? [{ type: 'media', mediaType: 'text/plain', text: texts.join('\n'), ...title }] : [];
      return parts.concat(images);
    }
  }
}

function toolResultPart(block: ToolResultBlock, notes: RequestNotes) {
  const content: Array<TextPart | MediaPart> = [];
  if (typeof block.content === 'string') {
    if (block.content.length > 0) content.push({ type: 'text', text: block.content });
  } else if (block.content) {
    for (const inner of block.content) {
      if (inner.type === 'text') content.push(textPart(inner as TextBlock));
      else if (inner.type === 'image') content.push(imagePart(inner as ImageBlock));
      else if (inner.type === 'document') content.push(...documentParts(inner as DocumentBlock));
      else {
        // A tool result is user input: an unknown block in it is refused like one in a user turn.
        const part = otherBlockToPart(inner as OtherBlock, 'user', notes);
        if (part) content.push(part);
      }
    }
  }
  return {
    type: 'tool_result' as const,
    callId: block.tool_use_id,
    content,
    ...(block.is_error ? { isError: true } : {}),
  };
}
