/**
 * OpenAI-style error bodies (`{"error":{message, type, param, code}}`, which
 * both OpenAI APIs and Azure's write) → gateway errors. The status and
 * message map as for every upstream; the body's own `code` and `param` are
 * kept as the error's detail in the protocol's dialect, so an OpenAI client
 * gets the word the server chose (Azure's `content_filter`), in the family's
 * own error shape, while clients of other dialects see the error in their
 * own terms.
 */
import type { Dialect } from '../core/chat.js';
import { GatewayError } from '../core/errors.js';
import { readErrorText, statusErrorFromText, type StatusThrower } from './error-answer.js';
import type { UpstreamHeaders } from './headers.js';

/** A code is one short word: anything else (a sentence, a value echoed back) is not kept. */
const CODE_WORD = /^[A-Za-z0-9_.-]{1,64}$/;

/** The status thrower of a protocol of an OpenAI dialect, built once per protocol. */
export function openAiStatusThrower(dialect: Extract<Dialect, 'chat-completions' | 'responses'>): StatusThrower {
  return async (status: number, headers: UpstreamHeaders, body: AsyncIterable<Uint8Array>, secrets: readonly string[] = []): Promise<never> => {
    const text = await readErrorText(body);
    const mapped = statusErrorFromText(status, headers, text, secrets);
    const own = ownWords(text);
    if (!own) throw mapped;
    throw new GatewayError(mapped.kind, mapped.message, {
      status: mapped.status,
      upstreamStatus: mapped.upstreamStatus,
      retryAfterSeconds: mapped.retryAfterSeconds,
      retryable: mapped.retryable,
      detail: own.param === undefined ? { dialect, code: own.code } : { dialect, code: own.code, param: own.param },
    });
  };
}

/** The body's `error.code` (and `error.param`), when it is OpenAI's shape. */
function ownWords(text: string): { code: string; param?: string } | undefined {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; param?: unknown } }).error;
    if (!error || typeof error.code !== 'string' || !CODE_WORD.test(error.code)) return undefined;
    return typeof error.param === 'string' && error.param !== '' && error.param.length <= 200 ? { code: error.code, param: error.param } : { code: error.code };
  } catch {
    return undefined;
  }
}
