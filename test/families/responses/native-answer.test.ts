/**
 * A native Responses answer leaves with the gateway's ids. Where the upstream
 * wrote the response id as the object's first key, the id is swapped in the
 * upstream's own text (its other bytes kept as they came); anywhere else, and
 * when the previous response id changes too, the object is written anew.
 */
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../src/core/channel.js';
import type { ResponsesExchange } from '../../../src/families/responses/exchange.js';
import { wrapNativeAnswer } from '../../../src/families/responses/native-answer.js';
import type { PassThroughResult } from '../../../src/upstreams/types.js';
import { WholeBody } from '../../../src/upstreams/whole-body.js';

const GATEWAY_ID = 'resp_gateway0001';

function exchange(previous?: string, stores = true): ResponsesExchange & { recorded: Array<Record<string, unknown>> } {
  const recorded: Array<Record<string, unknown>> = [];
  return {
    id: GATEWAY_ID,
    sequence: 0,
    stores,
    records: stores,
    recorded,
    options: { history: { previous: previous === undefined ? undefined : { id: previous } } },
    async record(response: Record<string, unknown>) {
      recorded.push(structuredClone(response));
    },
  } as unknown as ResponsesExchange & { recorded: Array<Record<string, unknown>> };
}

const channel = { id: 'ch_1' } as Channel;

async function answerOf(wrapped: PassThroughResult | Promise<PassThroughResult>): Promise<string> {
  const result = await wrapped;
  const chunks: Uint8Array[] = [];
  for await (const chunk of result.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function plain(text: string): PassThroughResult {
  return {
    status: 200,
    contentType: 'application/json',
    body: (async function* () {
      yield Buffer.from(text);
    })(),
    answer: JSON.parse(text),
    usage: () => undefined,
  };
}

/** A plain answer as the upstreams hand it over: read whole before delivery. */
function whole(text: string): PassThroughResult {
  return { status: 200, contentType: 'application/json', body: new WholeBody(Buffer.from(text)), answer: JSON.parse(text), usage: () => undefined };
}

function stream(events: string[]): PassThroughResult {
  const text = events.map((data) => `event: ${JSON.parse(data).type}\ndata: ${data}\n\n`).join('');
  return {
    status: 200,
    contentType: 'text/event-stream',
    body: (async function* () {
      yield Buffer.from(text);
    })(),
    usage: () => undefined,
  };
}

describe('native Responses answers', () => {
  it('swaps the id in the upstream text when it is the first key, keeping the other bytes', async () => {
    const text = '{"id":"resp_up1","object":"response","temperature":1.0,"output":[{"id":"msg_1","type":"message"}]}';
    const session = exchange();
    const out = await answerOf(wrapNativeAnswer(session, plain(text), channel));
    expect(out).toBe(text.replace('resp_up1', GATEWAY_ID));
    expect(session.recorded[0]!.id).toBe(GATEWAY_ID);
    // Whitespace before the object and text beyond ASCII elsewhere keep their bytes too.
    const spaced = ' \n{"id":"resp_up1","output_text":"d\u00e9j\u00e0 vu \ud83d\ude00","note":"é"}';
    expect(await answerOf(wrapNativeAnswer(exchange(), plain(spaced), channel))).toBe(spaced.replace('resp_up1', GATEWAY_ID));
  });

  it('rewrites an answer read whole at once, and waits only to record a stored one before releasing it', async () => {
    const text = '{"id":"resp_up1","object":"response","output":[]}';
    const unstored = exchange(undefined, false);
    const answered = wrapNativeAnswer(unstored, whole(text), channel);
    expect(answered).not.toBeInstanceOf(Promise);
    const released = answered as PassThroughResult;
    expect(released.body).toBeInstanceOf(WholeBody);
    expect((released.body as WholeBody).bytes.toString('utf8')).toBe(text.replace('resp_up1', GATEWAY_ID));
    expect(released.responseId?.()).toBe(GATEWAY_ID);
    expect(unstored.recorded).toEqual([]);

    const stored = exchange();
    const recording = wrapNativeAnswer(stored, whole(text), channel);
    expect(recording).toBeInstanceOf(Promise);
    expect(await answerOf(recording)).toBe(text.replace('resp_up1', GATEWAY_ID));
    expect(stored.recorded).toEqual([{ id: GATEWAY_ID, object: 'response', output: [] }]);
    // An answer with no id is no response to record: it passes as it came.
    const noId = wrapNativeAnswer(exchange(), whole('{"object":"response"}'), channel);
    expect(await answerOf(noId)).toBe('{"object":"response"}');
  });

  it('writes the answer anew when the upstream id is beyond ASCII', async () => {
    const text = '{"id":"resp_été","object":"response","note":"é"}';
    expect(JSON.parse(await answerOf(wrapNativeAnswer(exchange(undefined, false), whole(text), channel)))).toEqual({ id: GATEWAY_ID, object: 'response', note: 'é' });
  });

  it('never swaps an id the upstream wrote inside another object', async () => {
    const nested = '{"object":"response","output":[{"id":"resp_up1"}],"id":"resp_up1"}';
    expect(JSON.parse(await answerOf(wrapNativeAnswer(exchange(), plain(nested), channel)))).toEqual({ object: 'response', output: [{ id: 'resp_up1' }], id: GATEWAY_ID });
  });

  it('writes the object anew when the id comes later or the previous id changes too', async () => {
    const later = await answerOf(wrapNativeAnswer(exchange(), plain('{"object":"response","id":"resp_up1","store":false}'), channel));
    expect(JSON.parse(later)).toEqual({ object: 'response', id: GATEWAY_ID, store: false });
    const chained = await answerOf(wrapNativeAnswer(exchange('resp_client0'), plain('{"id":"resp_up2","previous_response_id":"resp_up1"}'), channel));
    expect(JSON.parse(chained)).toEqual({ id: GATEWAY_ID, previous_response_id: 'resp_client0' });
  });

  it('swaps the id in every lifecycle event of a stream, and records the last', async () => {
    const session = exchange();
    const out = await answerOf(
      wrapNativeAnswer(
        session,
        stream([
          '{"type":"response.created","sequence_number":0,"response":{"id":"resp_up3","status":"in_progress"}}',
          '{"type":"response.output_text.delta","sequence_number":1,"delta":"resp_up3"}',
          '{"type":"response.completed","sequence_number":2,"response":{"status":"completed","id":"resp_up3"}}',
        ]),
        channel,
      ),
    );
    const datas = out
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(datas[0].response.id).toBe(GATEWAY_ID);
    // Deltas pass untouched, even when their text looks like the id.
    expect(datas[1].delta).toBe('resp_up3');
    // The id was not the response's first key: the event is written anew.
    expect(datas[2].response).toEqual({ status: 'completed', id: GATEWAY_ID });
    expect(out).toContain('"response":{"id":"resp_gateway0001","status":"in_progress"}');
    expect(session.recorded.at(-1)!.id).toBe(GATEWAY_ID);
  });

  it('keeps every other byte of a stream, its events split across chunks as the upstream sent them', async () => {
    const created = '{"type":"response.created","sequence_number":0,"response":{"id":"resp_up4","status":"in_progress"}}';
    const delta = '{"type":"response.output_text.delta","sequence_number":1,"delta":"hi"}';
    const completed = '{"type":"response.completed","sequence_number":2,"response":{"id":"resp_up4","status":"completed"}}';
    // CRLF line ends, an `id:` field and a comment: no part of what the gateway rewrites, so kept as they came.
    const text = `: keep-alive\r\nevent: response.created\r\nid: 1\r\ndata: ${created}\r\n\r\nevent: response.output_text.delta\r\ndata: ${delta}\r\n\r\nevent: response.completed\r\ndata: ${completed}\r\n\r\n`;
    const cut = text.indexOf('resp_up4') + 3;
    const chunks = [text.slice(0, cut), text.slice(cut, text.indexOf('event: response.completed') + 10), text.slice(text.indexOf('event: response.completed') + 10)];
    const session = exchange();
    const result: PassThroughResult = {
      status: 200,
      contentType: 'text/event-stream',
      body: (async function* () {
        for (const chunk of chunks) yield Buffer.from(chunk);
      })(),
      usage: () => undefined,
    };
    const out = await answerOf(wrapNativeAnswer(session, result, channel));
    expect(out).toBe(text.replaceAll('resp_up4', GATEWAY_ID));
    expect(session.recorded.at(-1)!.id).toBe(GATEWAY_ID);
    expect(session.sequence).toBe(3);
  });
});
