/** A batch line of `/v1/moderations` (src/tasks/batches/), served by the route's own path and recorded for the output file. */
import { exposedError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { AppContext } from '../../http/context.js';
import { requestServices } from '../../pipeline/chat-services.js';
import { servePlainOperation } from '../../pipeline/plain-operation.js';
import { recordAnswer, type BatchLineHandler } from '../../pipeline/recorded-output.js';
import { parseModerationsRequest } from './validate.js';

export function moderationsBatchLine(ctx: AppContext): BatchLineHandler {
  const renderError = (error: Parameters<typeof exposedError>[0], requestId: string) => renderOpenAIError(exposedError(error, requestId), 'chat-completions');
  return (line) =>
    recordAnswer(
      line.requestId,
      async (output) => {
        const startedAt = Date.now();
        const moderation = parseModerationsRequest(line.body);
        await servePlainOperation(
          requestServices(ctx),
          {
            requestId: line.requestId,
            key: line.key,
            clientIp: '',
            headers: {},
            model: moderation.model,
            startedAt,
            request: moderation,
            body: { rawBody: Buffer.from(JSON.stringify(line.body)), body: line.body, stream: false },
            countInput: () => moderation.inputs.reduce((sum, parts) => sum + parts.reduce((n, part) => n + (part.type === 'text' ? countTokens(part.text) : 0), 0), 0),
          },
          {
            family: 'moderations',
            operation: (adapter) => adapter.moderations,
            render: (response) => ({ id: `modr-${line.requestId}`, model: moderation.model, results: response.results }),
            renderError,
            freeUnlessPriced: true,
          },
          output,
        );
      },
      renderError,
    );
}
