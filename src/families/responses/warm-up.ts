/**
 * `response.create` with `generate: false` on a Responses WebSocket: the
 * client (Codex's built-in provider, first thing on every socket) hands over
 * its instructions, tools and first items ahead of the turn, and chains the
 * turn on the answer's id. OpenAI answers with a response that has no output;
 * so does the gateway, without calling an upstream (nothing is generated,
 * nothing is charged or logged), keeping the items for the turn that follows.
 */
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import type { ResponseRepository } from '../../storage/responses.js';
import { finishResponse } from './response-object.js';
import { openExchange } from './open-exchange.js';
import type { SocketOutput } from './socket-output.js';
import { parseResponsesRequest } from './validate.js';

const nothingUsed = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export async function warmUp(ctx: AppContext, repository: ResponseRepository, key: ClientKey, body: unknown, output: SocketOutput, requestId: string): Promise<void> {
  const parsed = parseResponsesRequest(body);
  const opening = openExchange(ctx, repository, key.record.id, parsed, (error) => ctx.logger.error({ err: error, requestId }, 'storing a response failed'), true);
  const { exchange } = opening instanceof Promise ? await opening : opening;
  const created = exchange.base();
  await output.write(frame('response.created', { sequence_number: exchange.sequence++, response: created }));
  const finished = finishResponse({ ...created, output: [] }, 'stop', nothingUsed);
  await exchange.record(finished);
  await output.write(frame('response.completed', { sequence_number: exchange.sequence++, response: exchange.visible(finished) }));
  output.end();
}

function frame(type: string, fields: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}
