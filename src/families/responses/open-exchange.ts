/**
 * What a Responses request and a Responses count both start from: the stored
 * conversation it continues (`previous_response_id`, `item_reference`s), the
 * items this request adds, and the exchange that maps ids and records the
 * answer.
 */
import type { AppContext } from '../../http/context.js';
import { ReasoningSealer } from '../../core/reasoning-state.js';
import type { ResponseRepository } from '../../storage/responses.js';
import { currentItems, type SourcedItem } from './conversation.js';
import { ResponsesExchange } from './exchange.js';
import { loadHistory, type History } from './history.js';
import { inputAsItems } from './items.js';
import { mayTranslate } from './serving.js';
import type { ValidatedRequest } from './validate.js';

export interface OpenedExchange {
  history: History;
  current: SourcedItem[];
  exchange: ResponsesExchange;
}

/** Opened at once (no promise) when the request continues nothing stored; otherwise once the history is read. */
export function openExchange(
  ctx: AppContext,
  repository: ResponseRepository,
  keyId: string,
  request: ValidatedRequest,
  onRecordError: (error: unknown) => void,
  keepUnstored = false,
): OpenedExchange | Promise<OpenedExchange> {
  const input = inputAsItems(request.input);
  const history = loadHistory(repository, {
    keyId,
    previousResponseId: request.previous_response_id,
    input,
    wholeConversation: mayTranslate(ctx, request.model),
  });
  const open = (loaded: History): OpenedExchange => {
    const current = currentItems(input, loaded);
    const exchange = new ResponsesExchange({ request, keyId, history: loaded, current, repository, onRecordError, sealer: ReasoningSealer.of(ctx.secrets), keepUnstored });
    return { history: loaded, current, exchange };
  };
  return history instanceof Promise ? history.then(open) : open(history);
}
