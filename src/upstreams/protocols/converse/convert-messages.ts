/**
 * The conversation of a translated request as Converse messages and system
 * blocks. System turns join the system blocks, in order; turns of one role
 * in a row become one message (Converse wants the roles to alternate); tool
 * results lead their user turn (Claude wants them first). Media go as bytes
 * (base64) or an `s3://` location: Converse fetches no other URL, so an
 * image or document by URL is refused. A mark the client placed on a part
 * becomes a `cachePoint` block after it, where the model caches prompts.
 */
import type { ChatMessage, ChatRequest, ContentPart, MediaPart } from '../../../core/chat.js';
import { PlanRank, type PlanBuilder } from '../../../core/translation-plan.js';
import { stateGoesBack } from './reasoning.js';
import type { ContentBlock, ConverseMessage, DocumentBlock, DocumentFormat, ImageBlock, ImageFormat, MediaSource, SystemBlock, ToolResultContent } from './wire.js';

export const MEDIA_RANK = PlanRank.rules + 2;

const CACHE_POINT = { cachePoint: { type: 'default' } } as const;

const imageFormats: Readonly<Record<string, ImageFormat>> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

const documentFormats: Readonly<Record<string, DocumentFormat>> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/** What one conversion needs besides the parts: the plan, whether marks become cache points, the channel type thoughts must come from, and document names given so far. */
export interface MessageContext {
  plan: PlanBuilder;
  cachePoints: boolean;
  type: string;
  documents: number;
}

/** The system prompt and every system turn's text, as system blocks (media have no place there: refused). */
export function systemBlocks(request: ChatRequest, context: MessageContext): SystemBlock[] {
  const blocks: SystemBlock[] = request.system ? [{ text: request.system }] : [];
  for (const message of request.messages) {
    if (message.role !== 'system') continue;
    for (const part of message.content) {
      if (part.type === 'text' && part.text !== '') blocks.push({ text: part.text });
      else if (part.type === 'media') context.plan.refused(`media type ${part.mediaType}`, 'has no place in the system prompt', MEDIA_RANK);
    }
  }
  return blocks;
}

export function converseMessages(messages: readonly ChatMessage[], context: MessageContext): ConverseMessage[] {
  const out: ConverseMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const content = toBlocks(message, context);
    if (content.length === 0) continue;
    const previous = out[out.length - 1];
    if (previous?.role === message.role) for (const block of content) previous.content.push(block);
    else out.push({ role: message.role, content });
  }
  for (const message of out) if (message.role === 'user') toolResultsFirst(message.content);
  return out;
}

function toBlocks(message: ChatMessage, context: MessageContext): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const part of message.content) {
    const block = toBlock(part, context);
    if (!block) continue;
    blocks.push(block);
    if (part.type !== 'thinking' && part.cache && context.cachePoints) blocks.push(CACHE_POINT);
  }
  return blocks;
}

function toBlock(part: ContentPart, context: MessageContext): ContentBlock | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { text: part.text };
    case 'media':
      return mediaBlock(part, context);
    case 'tool_call':
      return { toolUse: { toolUseId: part.id, name: part.name, input: part.input } };
    case 'tool_result': {
      const content: ToolResultContent[] = [];
      for (const inner of part.content) {
        const block = inner.type === 'text' ? (inner.text === '' ? undefined : { text: inner.text }) : mediaBlock(inner, context);
        if (block) content.push(block);
      }
      // Converse requires a result's content; an empty result is an empty text.
      if (content.length === 0) content.push({ text: '' });
      return { toolResult: { toolUseId: part.callId, content, status: part.isError ? 'error' : 'success' } };
    }
    case 'thinking':
      if (!stateGoesBack(part, context.type)) return undefined;
      if (part.redactedData !== undefined) return { reasoningContent: { redactedContent: part.redactedData } };
      return { reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } };
  }
}

/** An image or a document; any other media (audio, video) is refused, as is one by a URL Converse cannot fetch. */
export function mediaBlock(part: MediaPart, context: MessageContext): ImageBlock | DocumentBlock | undefined {
  const source = mediaSource(part);
  if (!source) {
    // A stored file of another provider (`file_id:`) is refused as the client's feature already.
    if (!part.url?.startsWith('file_id:')) context.plan.refused(`media type ${part.mediaType}`, 'takes media as bytes or an s3:// location, not by URL', MEDIA_RANK);
    return undefined;
  }
  const image = imageFormats[part.mediaType];
  const document = image ? undefined : documentFormats[part.mediaType];
  if (!image && !document) {
    context.plan.refused(`media type ${part.mediaType}`, 'takes images (PNG, JPEG, GIF, WebP) and documents (PDF, text, Office) only', MEDIA_RANK);
    return undefined;
  }
  if (image) return { image: { format: image, source } };
  return { document: { format: document!, name: documentName(part, context), source } };
}

function mediaSource(part: MediaPart): MediaSource | undefined {
  if (part.data !== undefined) return { bytes: part.data };
  if (part.text !== undefined) return { bytes: Buffer.from(part.text, 'utf8').toString('base64') };
  if (part.url?.startsWith('s3://')) return { s3Location: { uri: part.url } };
  return undefined;
}

/** Converse names each document with letters, digits, single spaces, hyphens, parentheses and brackets, unique in the request. */
function documentName(part: MediaPart, context: MessageContext): string {
  context.documents++;
  const given = (part.title ?? part.filename ?? '')
    .replace(/\.[A-Za-z0-9]+$/, '')
    .replace(/[^A-Za-z0-9\s\-()[\]]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 180);
  return given ? `${given} (${context.documents})` : `document ${context.documents}`;
}

function toolResultsFirst(blocks: ContentBlock[]): void {
  if (blocks.length < 2 || !blocks.some((block, i) => i > 0 && 'toolResult' in block)) return;
  // Results first, everything else after in its order (a cache point after a result then falls after the last result: later, never earlier).
  const results = blocks.filter((block) => 'toolResult' in block);
  const others = blocks.filter((block) => !('toolResult' in block));
  blocks.length = 0;
  for (const block of results) blocks.push(block);
  for (const block of others) blocks.push(block);
}

export { CACHE_POINT };
