/**
 * Responses error bodies → gateway errors: OpenAI's shape, the body's own
 * `code` and `param` kept as the error's `responses` detail
 * (src/upstreams/openai-error-answer.ts), so a filtered prompt reaches an
 * OpenAI client as Azure's `content_filter`.
 */
import { openAiStatusThrower } from '../../openai-error-answer.js';

export const throwResponsesStatus = openAiStatusThrower('responses');
