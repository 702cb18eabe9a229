/**
 * On the native (pass-through) path the client's bytes go as they are, except
 * for reasoning state this gateway sealed on a translated turn (another
 * provider's thinking, see core/reasoning-state.ts): Anthropic could not
 * verify it and would refuse the request, so those thinking and
 * redacted_thinking blocks are left out. Without any, the bytes are untouched.
 */
import { isSealedReasoning } from '../../core/reasoning-state.js';
import type { PassThroughRequest } from '../../upstreams/types.js';

type Block = Record<string, unknown>;

const sealedBlock = (block: Block) => (block.type === 'thinking' && isSealedReasoning(block.signature)) || (block.type === 'redacted_thinking' && isSealedReasoning(block.data));

export function withoutSealedThinking(body: Record<string, unknown>, stream: boolean): PassThroughRequest | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages)) return undefined;
  const carries = (message: { content?: unknown }) => Array.isArray(message?.content) && (message.content as Block[]).some(sealedBlock);
  if (!messages.some(carries)) return undefined;
  const cleaned = messages.map((message: { content?: unknown }) => (carries(message) ? { ...message, content: (message.content as Block[]).filter((block) => !sealedBlock(block)) } : message));
  const rewritten = { ...body, messages: cleaned };
  return { rawBody: Buffer.from(JSON.stringify(rewritten)), body: rewritten, stream };
}
