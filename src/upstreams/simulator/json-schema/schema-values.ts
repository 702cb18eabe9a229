/** The small readers every part of the JSON Schema sampler shares. */
import type { JsonSchema } from '../../../core/chat.js';

export type Schema = JsonSchema | boolean;

export interface SampleContext {
  root: JsonSchema;
  /** Text for the first string field it fits in; cleared once used. */
  hint: string | undefined;
}

export const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
export const numberOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
export const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v) => typeof v === 'string') : []);
export const codePoints = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** A schema's `type` as lowercase names (Gemini writes them uppercase). */
export function typeList(type: unknown): string[] {
  const list = Array.isArray(type) ? type : [type];
  return list.filter((t) => typeof t === 'string').map((t) => t.toLowerCase());
}
