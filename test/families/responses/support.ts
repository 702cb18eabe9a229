/** Helpers for Responses tests: raw calls and SSE parsing, plus the event-order rules the official client checks. */
import { expect } from 'vitest';

export interface RawEvent {
  event?: string;
  data: any;
}

export async function postResponses(url: string, key: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Splits an SSE body into events (`event:` name and parsed `data:` JSON); `[DONE]` is skipped. */
export function parseSse(text: string): RawEvent[] {
  const events: RawEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (block.trim() === '') continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0 || data.join('\n') === '[DONE]') continue;
    events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}

export async function streamEvents(url: string, key: string, body: Record<string, unknown>): Promise<RawEvent[]> {
  const response = await postResponses(url, key, { ...body, stream: true });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return parseSse(await response.text());
}

/**
 * The stream discipline of the Responses dialect: names match types, sequence
 * numbers count from 0, `response.created` first, output indexes appended in
 * order, item-scoped events name the item's id, content indexes appended in
 * order, `output_item.done` repeats the item's identity, one terminal event last.
 */
export function checkStreamDiscipline(events: RawEvent[]): void {
  expect(events[0]?.data.type).toBe('response.created');
  const items: Array<{ id: string; type: string; call_id?: string; parts: number; done: boolean }> = [];
  events.forEach(({ event, data }, i) => {
    if (event !== undefined) expect(event).toBe(data.type);
    expect(data.sequence_number).toBe(i);
    if (data.type === 'response.output_item.added') {
      expect(data.output_index).toBe(items.length);
      expect(typeof data.item.id).toBe('string');
      expect(data.item.id.length).toBeGreaterThan(0);
      if (data.item.type === 'message') expect(data.item.content).toEqual([]);
      items.push({ id: data.item.id, type: data.item.type, call_id: data.item.call_id, parts: 0, done: false });
      return;
    }
    if (data.type === 'response.output_item.done') {
      const item = items[data.output_index];
      expect(item).toBeDefined();
      expect(data.item.id).toBe(item.id);
      expect(data.item.type).toBe(item.type);
      expect(data.item.call_id).toBe(item.call_id);
      item.done = true;
      return;
    }
    if ('item_id' in data) {
      const item = items[data.output_index];
      expect(item?.id).toBe(data.item_id);
      expect(item.done).toBe(false);
      if (data.type === 'response.content_part.added') {
        expect(data.content_index).toBe(item.parts);
        item.parts++;
      }
    }
  });
  const last = events[events.length - 1].data;
  expect(['response.completed', 'response.incomplete', 'response.failed']).toContain(last.type);
  if (last.type !== 'response.failed') {
    expect(items.every((item) => item.done)).toBe(true);
    expect(last.response.output.map((item: { id: string }) => item.id)).toEqual(items.map((item) => item.id));
    expect(last.response.usage).not.toBeNull();
  }
}
