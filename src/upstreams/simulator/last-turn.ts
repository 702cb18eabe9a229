/** What the simulator answers to: the last user message of the conversation. */
import type { ChatMessage, ToolResultPart } from '../../core/chat.js';

export interface LastTurn {
  /** The message's text parts, joined with newlines. */
  text: string;
  /** Media types of attached files, in order. */
  mediaTypes: string[];
  toolResults: ToolResultPart[];
}

export function readLastTurn(messages: ChatMessage[]): LastTurn {
  const turn: LastTurn = { text: '', mediaTypes: [], toolResults: [] };
  let last: ChatMessage | undefined;
  for (let k = messages.length - 1; k >= 0 && last === undefined; k--) if (messages[k].role === 'user') last = messages[k];
  if (last === undefined) return turn;
  const texts: string[] = [];
  for (const part of last.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'media') turn.mediaTypes.push(part.mediaType);
    else if (part.type === 'tool_result') turn.toolResults.push(part);
  }
  turn.text = texts.join('\n');
  return turn;
}

/** A tool result's content as one line of text; media parts are named by type. */
export function toolResultText(result: ToolResultPart): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : (part.text ?? `[${part.mediaType}]`))).join('\n');
}
