/**
 * What a client-given model name may contain, and what a client is told about
 * a model no channel serves. Names travel into routing, upstream requests,
 * request logs, stored records and the console; a name that is not
 * well-formed text (control characters, a NUL byte PostgreSQL cannot store,
 * line breaks that forge log lines, bidirectional controls that make a name
 * read as another, lone surrogates, bytes that were not UTF-8) is never a
 * real model's name, so it is refused up front in every family.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// C0, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const MODEL_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Marks, embeddings, overrides and isolates (U+061C, U+200E-F, U+202A-E, U+2066-9).
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// What a decoder puts where bytes were not UTF-8.
const REPLACEMENT = '\ufffd';

export const MODEL_NAME_CONTROL_MESSAGE = 'must not contain control characters';

export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** Model names longer than this are refused in every family (see README, "Limits"). */
export const MAX_MODEL_NAME_LENGTH = 256;

export const MODEL_NAME_LENGTH_MESSAGE = `must be at most ${MAX_MODEL_NAME_LENGTH} characters`;

/** What is wrong with a model name (the words follow "model"), or undefined when it is well-formed text. */
export function modelNameProblem(name: string): string | undefined {
  if (name.length > MAX_MODEL_NAME_LENGTH) return MODEL_NAME_LENGTH_MESSAGE;
  if (MODEL_CONTROL.test(name)) return MODEL_NAME_CONTROL_MESSAGE;
  const bidi = BIDI_CONTROL.exec(name);
  if (bidi) return `must not contain bidirectional text controls (it holds ${codePoint(bidi[0])})`;
  if (!name.isWellFormed()) return 'must be well-formed Unicode text (it holds a lone surrogate)';
  if (name.includes(REPLACEMENT)) return 'must be valid UTF-8 (it holds U+FFFD, what a decoder puts for bytes that are not)';
  return undefined;
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The 404 for a model no channel serves: how the operator routes it. It
 * names no channel and nothing stored, only the two ways to serve a model.
 */
export function unservedModelMessage(model: string, channelKind = 'channel'): string {
  return `model "${model}" is not served by any ${channelKind}; to serve it, add it to a channel's models, or add a channel of type simulator that lists it`;
}

/** For a schema's refine: whether a model name is well-formed text of an allowed length. */
export function isWellFormedModelName(name: string): boolean {
  return modelNameProblem(name) === undefined;
}

/** The refine's message: what `modelNameProblem` found in the refused input. */
export function modelNameIssue(issue: { input?: unknown }): string {
  return modelNameProblem(String(issue.input)) ?? 'is not a valid model name';
}
