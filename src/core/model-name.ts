/**
 * What a client-given model name may contain. Names travel into routing,
 * upstream requests, request logs and stored records; control characters
 * (a NUL byte PostgreSQL cannot store, line breaks that forge log lines) are
 * never part of a real model name, so such a name is refused up front.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export const MODEL_NAME_CONTROL_MESSAGE = 'must not contain control characters';

export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** Model names longer than this are refused in every family (see README, "Limits"). */
export const MAX_MODEL_NAME_LENGTH = 256;

export const MODEL_NAME_LENGTH_MESSAGE = `must be at most ${MAX_MODEL_NAME_LENGTH} characters`;
