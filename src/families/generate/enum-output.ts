/**
 * `text/x.enum` output (the answer is one of the schema's enum values, as
 * bare text) through upstreams that only know JSON output: the request asks
 * for `{"value": <one of the values>}` (upstreams want an object at the root)
 * and the answer is unwrapped back to the bare value.
 */
import type { JsonSchema } from '../../core/chat.js';

export function enumWrapperSchema(values: string[]): JsonSchema {
  return {
    type: 'object',
    properties: { value: { type: 'string', enum: values } },
    required: ['value'],
    additionalProperties: false,
  };
}

/** The bare enum value of a wrapped answer; text that is not one is returned as it came. */
export function unwrapEnumText(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'string') return parsed;
    const value = (parsed as { value?: unknown } | null)?.value;
    if (typeof value === 'string') return value;
  } catch {
    // not JSON: the upstream already answered with bare text
  }
  return text;
}
