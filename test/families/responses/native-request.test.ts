/**
 * The native pass-through request per channel: the upstream's own id on the
 * channel holding the previous response (without reading the older turns),
 * the whole conversation adapted for any other channel, item references kept
 * or replaced, and the client's bytes untouched when nothing is stored.
 */
import { describe, expect, it } from 'vitest';
import { currentItems } from '../../../src/families/responses/conversation.js';
import { ReasoningSealer } from '../../../src/core/reasoning-state.js';
import { ResponsesExchange } from '../../../src/families/responses/exchange.js';
import { loadHistory } from '../../../src/families/responses/history.js';
import { inputAsItems } from '../../../src/families/responses/items.js';
import { nativeRequest } from '../../../src/families/responses/native-request.js';
import { parseResponsesRequest } from '../../../src/families/responses/validate.js';
import type { FoundItem, ResponseRepository, StoredResponse } from '../../../src/storage/responses.js';
import { testChannel } from '../../upstreams/support/call.js';

const first: StoredResponse = {
  id: 'resp_gw_1',
  keyId: 'k',
  previousResponseId: null,
  chain: [],
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }], id: 'msg_gw_in' }],
  response: {
    output: [
      { id: 'rs_up', type: 'reasoning', summary: [], encrypted_content: 'gAAAAblob' },
      { id: 'rs_up_plain', type: 'reasoning', summary: [] },
      { id: 'ws_up', type: 'web_search_call', status: 'completed' },
      { id: 'msg_up', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'reply one', annotations: [] }] },
    ],
  },
  channelId: 'ch_a',
  native: true,
  upstreamResponseId: 'resp_up_1',
  createdAt: 1,
};
const second: StoredResponse = {
  ...first,
  id: 'resp_gw_2',
  previousResponseId: 'resp_gw_1',
  chain: ['resp_gw_1'],
  input: [{ type: 'function_call_output', call_id: 'c1', output: 'x', id: 'fco_gw' }],
  response: {
    output: [
      {
        id: 'rs_gw',
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'hm' }],
        encrypted_content: new ReasoningSealer(Buffer.alloc(32, 1)).seal({ origin: 'anthropic', kind: 'thinking', value: 's' }),
      },
      { id: 'fc_gw', type: 'function_call', status: 'completed', call_id: 'c2', name: 'f', arguments: '{}' },
    ],
  },
  channelId: null,
  native: false,
  upstreamResponseId: null,
  createdAt: 2,
};

function fakeRepository(records: StoredResponse[]) {
  const reads = { getMany: 0 };
  const repository = {
    get: async (id: string) => records.find((record) => record.id === id),
    getMany: async (ids: string[]) => {
      reads.getMany++;
      return ids.flatMap((id) => records.filter((record) => record.id === id));
    },
    findItems: async (ids: string[]) => {
      const found = new Map<string, FoundItem>();
      for (const record of records) {
        for (const item of [...record.input, ...(record.response.output ?? [])]) {
          if (ids.includes(item.id as string)) found.set(item.id as string, { item, record });
        }
      }
      return found;
    },
    save: async () => undefined,
  } as unknown as ResponseRepository;
  return { repository, reads };
}

async function prepare(body: Record<string, unknown>, records: StoredResponse[], wholeConversation = false) {
  const { repository, reads } = fakeRepository(records);
  const request = parseResponsesRequest({ model: 'm', ...body });
  const input = inputAsItems(request.input);
  const history = await loadHistory(repository, { keyId: 'k', previousResponseId: request.previous_response_id, input, wholeConversation });
  const exchange = new ResponsesExchange({
    request,
    keyId: 'k',
    history,
    current: currentItems(input, history),
    repository,
    onRecordError: () => undefined,
    sealer: new ReasoningSealer(Buffer.alloc(32, 1)),
  });
  const rawBody = Buffer.from(JSON.stringify({ model: 'm', ...body }));
  const client = { rawBody, body: JSON.parse(rawBody.toString('utf8')), stream: false };
  return { exchange, client, reads };
}

describe('nativeRequest', () => {
  it('leaves the client bytes alone when nothing is stored', async () => {
    const { exchange, client } = await prepare({ input: 'hi', tools: [{ type: 'web_search_preview' }] }, []);
    expect(await nativeRequest(exchange, client, testChannel({ id: 'ch_a' }))).toBeUndefined();
  });

  it('sends the upstream id to the channel holding the previous response, without reading older turns', async () => {
    const { exchange, client, reads } = await prepare({ input: 'three', previous_response_id: 'resp_gw_1' }, [first]);
    const request = await nativeRequest(exchange, client, testChannel({ id: 'ch_a' }));
    expect(request?.body).toEqual({ model: 'm', input: 'three', previous_response_id: 'resp_up_1' });
    expect(JSON.parse(request!.rawBody.toString('utf8'))).toEqual(request!.body);
    expect(reads.getMany).toBe(0);
  });

  it('sends the whole conversation, adapted, to any other channel', async () => {
    const { exchange, client, reads } = await prepare({ input: 'three', previous_response_id: 'resp_gw_2' }, [first, second]);
    const request = await nativeRequest(exchange, client, testChannel({ id: 'ch_b' }));
    expect(reads.getMany).toBe(1);
    expect(request?.body.previous_response_id).toBeUndefined();
    expect(request?.body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] },
      { id: 'rs_up', type: 'reasoning', summary: [], encrypted_content: 'gAAAAblob' },
      { type: 'message', role: 'assistant', content: 'reply one' },
      { type: 'function_call_output', call_id: 'c1', output: 'x' },
      { type: 'function_call', call_id: 'c2', name: 'f', arguments: '{}' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'three' }] },
    ]);
  });

  it('keeps references the channel can resolve and replaces the others', async () => {
    const body = {
      input: [
        { type: 'item_reference', id: 'msg_up' },
        { type: 'item_reference', id: 'msg_unknown' },
        { role: 'user', content: 'go' },
      ],
    };
    const holder = await prepare(body, [first]);
    expect((await nativeRequest(holder.exchange, holder.client, testChannel({ id: 'ch_a' })))?.body.input).toEqual(body.input);
    const other = await prepare(body, [first]);
    expect((await nativeRequest(other.exchange, other.client, testChannel({ id: 'ch_b' })))?.body.input).toEqual([
      { type: 'message', role: 'assistant', content: 'reply one' },
      { type: 'item_reference', id: 'msg_unknown' },
      { role: 'user', content: 'go' },
    ]);
  });
});
