/**
 * What a loopback Claude answers, shared by the cloud fakes that serve
 * Anthropic models (fake-vertex.ts, fake-bedrock.ts): built from the request,
 * a tool call when tools are offered and no result came back yet, thinking
 * when asked for, "I see an image." for an image in, cache counters in the
 * usage; as the message object and as the Messages stream's events.
 */
export interface ClaudeScript {
  /** The text of a plain answer, e.g. "Hello from Claude on Vertex.". */
  greeting: string;
  /** The prefix of ids, e.g. `vrtx`. */
  idTag: string;
}

export interface ClaudeAnswer {
  message: Record<string, any>;
  events: Array<Record<string, any>>;
}

export function claudeAnswer(model: string, body: Record<string, any>, script: ClaudeScript): ClaudeAnswer {
  const toolName: string | undefined = body.tools?.[0]?.name;
  const last = body.messages.at(-1);
  const answeredTool = Array.isArray(last?.content) && last.content.some((block: any) => block.type === 'tool_result');
  const hasImage = body.messages.some((message: any) => Array.isArray(message.content) && message.content.some((block: any) => block.type === 'image'));
  const thinking = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive';
  const content: Record<string, unknown>[] = [];
  if (thinking) content.push({ type: 'thinking', thinking: 'Thinking it over.', signature: 'EqQBCkYIBRgCKkD' });
  const callsTool = toolName !== undefined && !answeredTool;
  content.push(callsTool ? { type: 'tool_use', id: `toolu_${script.idTag}_01`, name: toolName, input: { city: 'Paris' } } : { type: 'text', text: hasImage ? 'I see an image.' : script.greeting });
  const usage = { input_tokens: 12, cache_creation_input_tokens: 2, cache_read_input_tokens: 8, output_tokens: 6 };
  const message = { id: `msg_${script.idTag}_01`, type: 'message', role: 'assistant', model, content, stop_reason: callsTool ? 'tool_use' : 'end_turn', stop_sequence: null, usage };
  const events = messageEvents(message, content, message.stop_reason, usage, usage.output_tokens);
  return { message, events };
}

/**
 * A message as Anthropic streams it: `message_start` with the usage so far,
 * each block opened empty, then its deltas (a thinking block's signature
 * last), `message_delta` with the stop reason and the output count, `message_stop`.
 */
export function messageEvents(
  message: Record<string, unknown>,
  content: Array<Record<string, any>>,
  stopReason: string,
  usage: Record<string, number>,
  outputTokens: number,
): Array<Record<string, any>> {
  const events: Array<Record<string, any>> = [{ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }];
  content.forEach((block, index) => {
    if (block.type === 'thinking') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
  events.push({ type: 'message_stop' });
  return events;
}
