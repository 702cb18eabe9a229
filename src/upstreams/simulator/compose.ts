/** What the simulated model would say with no token limit: thinking, text, and maybe one tool call. */
import type { ChatRequest, FunctionTool, ResponseFormat } from '../../core/chat.js';
import { unsupportedFeature } from '../../core/errors.js';
import { sampleFromSchema } from './json-schema/sample-from-schema.js';
import { withFiller } from './filler.js';
import { readLastTurn, toolResultText, type LastTurn } from './last-turn.js';
import { chooseTool } from './tool-choice.js';

export interface Draft {
  thinking?: string;
  text: string;
  toolCall?: { name: string; input: Record<string, unknown> };
}

export function composeDraft(request: ChatRequest): Draft {
  const turn = readLastTurn(request.messages);
  const tool = turn.toolResults.length === 0 ? chooseTool(request, turn.text) : undefined;
  const draft: Draft = tool ? { text: `I'll call ${tool.name}.`, toolCall: { name: tool.name, input: toolInput(tool, turn.text) } } : { text: formatReply(request.responseFormat, turn) };
  if (thinks(request)) draft.thinking = thinkingAbout(turn, tool, request.responseFormat);
  return draft;
}

/** Enabled thinking, with a budget or adaptive (the model's own budget, at any effort), produces one thought. */
export function thinks(request: ChatRequest): boolean {
  return request.thinking?.enabled === true || request.thinking?.adaptive === true;
}

function toolInput(tool: FunctionTool, userText: string): Record<string, unknown> {
  const input = sample(tool.parameters, userText, `tools.${tool.name}.parameters`);
  // Tool inputs are objects on every wire format; a non-object schema gets an empty object.
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

function sample(schema: Record<string, unknown>, hint: string, where: string): unknown {
  try {
    return sampleFromSchema(schema, hint === '' ? undefined : hint);
  } catch (error) {
    throw unsupportedFeature(where, `the simulator cannot build a value for this schema (${(error as Error).message})`);
  }
}

/** The echo of the user's words (and of tool results), padded with filler. */
function plainReply(turn: LastTurn): string {
  const sentences: string[] = [];
  for (const result of turn.toolResults) {
    const text = toolResultText(result);
    sentences.push(result.isError ? `The tool reported an error: ${text}.` : `The tool returned: ${text}.`);
  }
  if (turn.text !== '' || turn.toolResults.length === 0) sentences.push(`You said: "${turn.text}".`);
  if (turn.mediaTypes.length > 0) {
    const count = turn.mediaTypes.length;
    sentences.push(`You attached ${count} ${count === 1 ? 'file' : 'files'} (${turn.mediaTypes.join(', ')}).`);
  }
  const prefix = sentences.join(' ');
  return withFiller(prefix, prefix);
}

function formatReply(format: ResponseFormat | undefined, turn: LastTurn): string {
  if (format?.type === 'json_schema') return JSON.stringify(sample(format.schema, turn.text, 'response_format.schema'));
  if (format?.type === 'json_object') return JSON.stringify({ reply: plainReply(turn) });
  return plainReply(turn);
}

const EXCERPT_LENGTH = 200;

function thinkingAbout(turn: LastTurn, tool: FunctionTool | undefined, format: ResponseFormat | undefined): string {
  const chars = [...turn.text];
  const excerpt = chars.length > EXCERPT_LENGTH ? `${chars.slice(0, EXCERPT_LENGTH).join('')}…` : turn.text;
  const opening = `The user wrote: "${excerpt}".`;
  if (tool) return `${opening} The message names the tool ${tool.name}, so I will call it with arguments that fit its schema.`;
  if (turn.toolResults.length > 0) return `${opening} The tool results are in, so I will report what they say.`;
  if (format?.type === 'json_schema' || format?.type === 'json_object') return `${opening} The answer must be JSON, so I will fill the requested shape with their words.`;
  return `${opening} I will repeat their words and add a few plain sentences about the simulator.`;
}
