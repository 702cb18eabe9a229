/** The simulated answer to a request, complete and deterministic. */
import type { ChatRequest, ChatResponse } from '../../core/chat.js';
import { countRequestTokens } from '../../core/tokens.js';
import { composeDraft, thinks } from './compose.js';
import { hashHex, requestFingerprint, sha256 } from './hash.js';
import { applyLimits } from './limits.js';

export function simulateAnswer(request: ChatRequest, model: string): ChatResponse {
  const fingerprint = requestFingerprint(request);
  const limited = applyLimits(composeDraft(request), request);
  const content: ChatResponse['content'] = [];
  if (limited.thinking !== undefined) {
    const signature = sha256(`signature:${fingerprint}:${limited.thinking}`).toString('base64');
    content.push({ type: 'thinking', text: limited.thinking, signature });
  }
  if (limited.text !== '') content.push({ type: 'text', text: limited.text });
  if (limited.toolCall) {
    const { name, input } = limited.toolCall;
    content.push({ type: 'tool_call', id: `call_${hashHex(`call:${fingerprint}`)}`, name, input });
  }
  return {
    id: `sim_${fingerprint.slice(0, 24)}`,
    model,
    content,
    finishReason: limited.finishReason,
    stopSequence: limited.stopSequence,
    usage: {
      inputTokens: countRequestTokens(request),
      outputTokens: limited.outputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      ...(thinks(request) ? { reasoningTokens: limited.reasoningTokens } : {}),
    },
  };
}
