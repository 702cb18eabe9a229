/**
 * Reads a transcription's or translation's `multipart/form-data` body into
 * its text fields and its one `file`, within bounds (25 MB, as OpenAI): a
 * field given twice or another file is a 400 naming it; and writes the same
 * parts again as a form for a server that takes them itself (the model named
 * being the channel's).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';

const MAX_FIELD_BYTES = 64 * 1024;

export interface AudioForm {
  /** Text fields; `timestamp_granularities[]` may repeat, so each holds every value given. */
  fields: Record<string, string[]>;
  file?: { bytes: Buffer; filename?: string; contentType?: string };
}

export async function readAudioForm(request: FastifyRequest, maxBytes: number): Promise<AudioForm> {
  if (!request.isMultipart()) throw new GatewayError('invalid_request', 'send the audio as multipart/form-data (a file and text fields)', { status: 415 });
  try {
    return await readParts(request, maxBytes);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) throw new GatewayError('invalid_request', `Invalid 'file': larger than ${maxBytes} bytes`, { status: 413, param: 'file' });
    if (status !== undefined && status >= 400 && status < 500) throw new GatewayError('invalid_request', 'multipart/form-data: too many parts or files');
    throw new GatewayError('invalid_request', 'multipart/form-data: the body is malformed or ends inside a part (check the boundary)');
  }
}

async function readParts(request: FastifyRequest, maxBytes: number): Promise<AudioForm> {
  const form: AudioForm = { fields: {} };
  const parts = request.parts({ limits: { files: 1, fields: 32, parts: 40, fieldSize: MAX_FIELD_BYTES, fileSize: maxBytes } });
  for await (const part of parts) {
    const name = part.fieldname;
    if (part.type === 'file') {
      if (name !== 'file') throw new GatewayError('invalid_request', `Invalid '${name}': only file may be a file`, { param: name });
      const bytes = await part.toBuffer();
      form.file = { bytes, filename: part.filename || undefined, contentType: part.mimetype || undefined };
      continue;
    }
    if (Object.hasOwn(form.fields, name) && !name.endsWith('[]')) throw new GatewayError('invalid_request', `Invalid '${name}': given more than once`, { param: name });
    if (part.valueTruncated) throw new GatewayError('invalid_request', `Invalid '${name}': longer than ${MAX_FIELD_BYTES} bytes`, { param: name });
    const values = form.fields[name] ?? [];
    values.push(typeof part.value === 'string' ? part.value : String(part.value));
    form.fields[name] = values;
  }
  return form;
}

/** The form again, `model` set to `model`: the text fields, then the file. */
export function encodeAudioForm(form: AudioForm, model: string): { contentType: string; bytes: Buffer } {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  const head = (disposition: string, type?: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`);
  for (const [name, values] of Object.entries({ ...form.fields, model: [model] })) {
    for (const value of values) chunks.push(head(`name="${quoted(name)}"`), Buffer.from(value), Buffer.from('\r\n'));
  }
  if (form.file) {
    const file = form.file;
    chunks.push(head(`name="file"; filename="${quoted(file.filename ?? 'audio.wav')}"`, file.contentType ?? 'application/octet-stream'), file.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(chunks) };
}

const quoted = (text: string): string => text.replace(/["\r\n\\]/g, '_');
