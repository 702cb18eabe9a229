/** Server-sent event framing for the fake upstream's prebuilt streams. */

/** `event: <name>` + `data: <json>` (Anthropic Messages, OpenAI Responses). */
export function namedEvent(name, data) {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** `data: <json>` only (OpenAI chat, Gemini `alt=sse`). */
export function dataEvent(data) {
  return `data: ${JSON.stringify(data)}\n\n`;
}

export const asBuffers = (texts) => texts.map((text) => Buffer.from(text));
