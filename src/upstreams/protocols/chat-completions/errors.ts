/**
 * OpenAI-style error bodies → gateway errors. The status and message map as
 * for every upstream; the body's own `code` and `param` are kept as the
 * error's `chat-completions` detail, so a Chat Completions client (the same
 * dialect) gets the words the server chose, while clients of other dialects
 * see the error in their own terms.
 */
import { GatewayError } from '../../../core/errors.js';
import { readErrorText, statusErrorFromText } from '../../error-answer.js';
import type { UpstreamHeaders } from '../../headers.js';

export async function throwChatCompletionsStatus(status: number, headers: UpstreamHeaders, body: AsyncIterable<Uint8Array>, secrets: readonly string[] = []): Promise<never> {
  const text = await readErrorText(body);
  const mapped = statusErrorFromText(status, headers, text, secrets);
  const own = ownWords(text);
  if (!own) throw mapped;
  throw new GatewayError(mapped.kind, mapped.message, {
    status: mapped.status,
    upstreamStatus: mapped.upstreamStatus,
    retryAfterSeconds: mapped.retryAfterSeconds,
    retryable: mapped.retryable,
    detail: { dialect: 'chat-completions', ...own },
  });
}

/** The body's `error.code` (and `error.param`), when it is OpenAI's shape. */
function ownWords(text: string): { code: string; param?: string } | undefined {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; param?: unknown } }).error;
    if (!error || typeof error.code !== 'string' || error.code === '') return undefined;
    return typeof error.param === 'string' && error.param !== '' ? { code: error.code, param: error.param } : { code: error.code };
  } catch {
    return undefined;
  }
}
