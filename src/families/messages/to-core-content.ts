/**
 * Converts Messages content blocks into the internal content parts.
 * `cache_control` marks are caching hints for the vendor and have no internal
 * counterpart; the same-dialect pass-through path keeps them.
 */
import type { ContentPart, MediaPart, TextPart } from '../../core/chat.js';
import type { ContentBlock, DocumentBlock, ImageBlock, TextBlock, ToolResultBlock } from './schema.js';

export function blocksToParts(content: string | ContentBlock[], into: ContentPart[]): void {
  if (typeof content === 'string') {
    if (content.length > 0) into.push({ type: 'text', text: content });
    return;
  }
  for (const block of content) into.push(...blockToParts(block));
}

function blockToParts(block: ContentBlock): ContentPart[] {
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
      return [toolResultPart(block)];
    case 'thinking':
      return [{ type: 'thinking', text: block.thinking, ...(block.signature ? { signature: block.signature } : {}) }];
    case 'redacted_thinking':
      return [{ type: 'thinking', text: '', redactedData: block.data }];
  }
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

function toolResultPart(block: ToolResultBlock) {
  const content: Array<TextPart | MediaPart> = [];
  if (typeof block.content === 'string') {
    if (block.content.length > 0) content.push({ type: 'text', text: block.content });
  } else if (block.content) {
    for (const inner of block.content) {
      if (inner.type === 'text') content.push(textPart(inner));
      else if (inner.type === 'image') content.push(imagePart(inner));
      else content.push(...documentParts(inner));
    }
  }
  return {
    type: 'tool_result' as const,
    callId: block.tool_use_id,
    content,
    ...(block.is_error ? { isError: true } : {}),
  };
}
