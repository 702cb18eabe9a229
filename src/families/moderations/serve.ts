/**
 * One `/v1/moderations` body served, from a key and the parsed JSON to the
 * answer on an output: what `POST /v1/moderations` and a batch line of it
 * both call, so that a line and a request cannot drift.
 */
import { exposedError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import type { CallOrigin } from '../../pipeline/call-basics.js';
import type { RequestOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import { servePlainOperation } from '../../pipeline/plain-operation.js';
import type { RenderedError } from '../../pipeline/types.js';
import { parseModerationsRequest } from './validate.js';

export const renderModerationsError = (error: Parameters<typeof exposedError>[0], requestId: string): RenderedError => renderOpenAIError(exposedError(error, requestId), 'chat-completions');

export async function serveModerationsBody(ctx: AppContext, origin: CallOrigin, key: ClientKey, body: unknown, rawBody: Buffer, output: RequestOutput, startedAt: number): Promise<void> {
  const moderation = parseModerationsRequest(body);
  await servePlainOperation(
    requestServices(ctx),
    {
      requestId: origin.id,
      key,
      clientIp: origin.ip,
      headers: origin.headers,
      model: moderation.model,
      startedAt,
      request: moderation,
      body: { rawBody, body: body as Record<string, unknown>, stream: false },
      countInput: () => moderation.inputs.reduce((sum, parts) => sum + parts.reduce((n, part) => n + (part.type === 'text' ? countTokens(part.text) : 0), 0), 0),
    },
    {
      family: 'moderations',
      operation: (adapter) => adapter.moderations,
      render: (response) => ({ id: `modr-${origin.id}`, model: moderation.model, results: response.results }),
      renderError: renderModerationsError,
      freeUnlessPriced: true,
    },
    output,
  );
}
