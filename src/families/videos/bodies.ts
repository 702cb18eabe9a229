/**
 * The two request shapes, read into the common `VideoInput`:
 * `POST /v1/videos` (multipart or JSON; `input_reference` a file, or in JSON
 * `{image_url}` / a data URL) and `POST /v1/video/generations` (JSON with
 * `image`/`images`, `duration`/`seconds`, `size`/`width`/`height`, `fps`,
 * `seed`). Unknown fields are refused by name, so a typo is not silently lost.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import { readMultipart } from './multipart.js';
import { MAX_REFERENCE_BYTES, referenceFromBytes } from './reference-image.js';
import type { Named, VideoInput } from './validate.js';
import { modelNameProblem } from '../../core/model-name.js';

export interface ShapedInput {
  /** The model named by the client, if any. */
  model?: string;
  input: VideoInput;
}

const CREATE_FIELDS = new Set(['prompt', 'model', 'seconds', 'size', 'metadata', 'input_reference']);
const MULTIPART_REFERENCE_FIELDS = new Set(['input_reference[image_url]', 'input_reference[file_id]']);
const GENERATION_FIELDS = new Set(['model', 'prompt', 'image', 'images', 'duration', 'seconds', 'size', 'width', 'height', 'fps', 'seed', 'metadata', 'user', 'n']);

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', `${param}: ${message}`, { param });
}

function readModel(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalid('model', 'must be a string');
  const problem = modelNameProblem(value);
  if (problem) throw invalid('model', problem);
  return value;
}

function asObject(body: unknown): Record<string, unknown> {
  if (body === undefined) throw new GatewayError('invalid_request', 'the request has no body; send multipart/form-data or JSON with at least a prompt');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new GatewayError('invalid_request', 'the request body must be a JSON object');
  return body as Record<string, unknown>;
}

function refuseUnknown(fields: Iterable<string>, known: Set<string>, extra: Set<string> = new Set()): void {
  for (const field of fields) {
    if (!known.has(field) && !extra.has(field)) throw invalid(field, `unknown field; the known fields are ${[...known].join(', ')}`);
  }
}

/** `input_reference` in JSON: `{image_url}` (an address or a data URL), or a data URL string. */
function jsonReference(value: unknown, into: VideoInput): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string') {
    into.references.push({ value, param: 'input_reference' });
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('input_reference', 'must be an object with image_url, or a data URL');
  const { image_url: imageUrl, file_id: fileId, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown) throw invalid(`input_reference.${unknown}`, 'unknown field; give image_url');
  if (fileId !== undefined) throw invalid('input_reference.file_id', 'file ids are not supported; upload the file or give image_url');
  if (typeof imageUrl !== 'string' || imageUrl === '') throw invalid('input_reference.image_url', 'must be a non-empty string');
  into.references.push({ value: imageUrl, param: 'input_reference.image_url' });
}

export async function readCreateBody(request: FastifyRequest, maxBodyBytes: number): Promise<ShapedInput> {
  if (request.isMultipart()) {
    const { fields, file } = await readMultipart(request, ['input_reference'], Math.min(maxBodyBytes, MAX_REFERENCE_BYTES + 1));
    refuseUnknown(Object.keys(fields), CREATE_FIELDS, MULTIPART_REFERENCE_FIELDS);
    const input: VideoInput = {
      prompt: fields.prompt,
      seconds: fields.seconds === undefined ? undefined : { value: fields.seconds, param: 'seconds' },
      size: fields.size === undefined ? undefined : { value: fields.size, param: 'size' },
      metadata: fields.metadata,
      references: [],
    };
    if (fields.input_reference !== undefined) input.references.push({ value: fields.input_reference, param: 'input_reference' });
    if (fields['input_reference[file_id]'] !== undefined) {
      throw invalid('input_reference.file_id', 'file ids are not supported; upload the file or give image_url');
    }
    const imageUrl = fields['input_reference[image_url]'];
    if (imageUrl !== undefined) input.references.push({ value: imageUrl, param: 'input_reference.image_url' });
    if (file) input.file = { value: referenceFromBytes(file.bytes, file.filename, 'input_reference'), param: 'input_reference' };
    return { model: readModel(fields.model), input };
  }
  const body = asObject(request.body);
  refuseUnknown(Object.keys(body), CREATE_FIELDS);
  const input: VideoInput = {
    prompt: body.prompt,
    seconds: body.seconds === undefined ? undefined : { value: body.seconds, param: 'seconds' },
    size: body.size === undefined ? undefined : { value: body.size, param: 'size' },
    metadata: body.metadata,
    references: [],
  };
  jsonReference(body.input_reference, input);
  return { model: readModel(body.model), input };
}

/** The remix body: `{prompt}` (JSON, or multipart from clients that always send forms). */
export async function readRemixBody(request: FastifyRequest): Promise<unknown> {
  if (request.isMultipart()) {
    const { fields } = await readMultipart(request, [], 0);
    refuseUnknown(Object.keys(fields), new Set(['prompt']));
    return fields.prompt;
  }
  const body = asObject(request.body);
  refuseUnknown(Object.keys(body), new Set(['prompt']));
  return body.prompt;
}

function generationImages(body: Record<string, unknown>): Array<Named<string>> {
  const out: Array<Named<string>> = [];
  if (body.image !== undefined && body.image !== null && body.image !== '') {
    if (typeof body.image !== 'string') throw invalid('image', 'must be a string: an image URL or a data URL');
    out.push({ value: body.image, param: 'image' });
  }
  if (body.images !== undefined && body.images !== null) {
    if (!Array.isArray(body.images)) throw invalid('images', 'must be a list of image URLs or data URLs');
    body.images.forEach((value, index) => {
      if (typeof value !== 'string' || value === '') throw invalid(`images.${index}`, 'must be an image URL or a data URL');
      out.push({ value, param: `images.${index}` });
    });
  }
  return out;
}

/** Whole seconds from `duration` (a number or numeric string) or `seconds` (a string); both must agree. */
function generationSeconds(body: Record<string, unknown>): Named | undefined {
  const duration = body.duration ?? undefined;
  const seconds = body.seconds ?? undefined;
  if (duration !== undefined && seconds !== undefined && String(duration).trim() !== String(seconds).trim()) {
    throw invalid('duration', `${String(duration)} differs from seconds ${String(seconds)}`);
  }
  if (duration !== undefined) return { value: duration, param: 'duration' };
  return seconds === undefined ? undefined : { value: seconds, param: 'seconds' };
}

export function readGenerationBody(raw: unknown): ShapedInput {
  const body = asObject(raw);
  refuseUnknown(Object.keys(body), GENERATION_FIELDS);
  if (body.n !== undefined && body.n !== 1) throw invalid('n', 'only one video per request (n: 1)');
  if (body.user !== undefined && typeof body.user !== 'string') throw invalid('user', 'must be a string');
  const input: VideoInput = {
    prompt: body.prompt,
    seconds: generationSeconds(body),
    size: body.size === undefined ? undefined : { value: body.size, param: 'size' },
    width: body.width,
    height: body.height,
    fps: body.fps,
    seed: body.seed,
    metadata: body.metadata,
    references: generationImages(body),
  };
  return { model: readModel(body.model), input };
}
