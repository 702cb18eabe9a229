/**
 * Reads an edit's `multipart/form-data` body into its text fields and its
 * files (`image`, `image[]`, `mask`), within bounds: a field given twice,
 * a file under another name, or too many files is a 400 naming it; and
 * writes the same parts again as a form for a server that takes edits
 * itself (the model named being the channel's).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import type { ImageFile } from '../../dialects/openai-images/wire.js';

const FILE_FIELDS = ['image', 'image[]', 'mask'];
/** OpenAI takes up to 16 images to edit, and a mask. */
const MAX_FILES = 17;
const MAX_FIELD_BYTES = 64 * 1024;

export interface EditForm {
  fields: Record<string, string>;
  files: ImageFile[];
}

export async function readEditForm(request: FastifyRequest, maxBytes: number): Promise<EditForm> {
  if (!request.isMultipart()) throw new GatewayError('invalid_request', 'send the edit as multipart/form-data (image files and text fields)', { status: 415 });
  try {
    return await readParts(request, maxBytes);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) throw new GatewayError('invalid_request', `a file is larger than ${maxBytes} bytes`, { status: 413 });
    if (status !== undefined && status >= 400 && status < 500) throw new GatewayError('invalid_request', 'multipart/form-data: too many parts or files');
    throw new GatewayError('invalid_request', 'multipart/form-data: the body is malformed or ends inside a part (check the boundary)');
  }
}

async function readParts(request: FastifyRequest, maxBytes: number): Promise<EditForm> {
  const form: EditForm = { fields: {}, files: [] };
  const parts = request.parts({ limits: { files: MAX_FILES, fields: 32, parts: 60, fieldSize: MAX_FIELD_BYTES, fileSize: maxBytes } });
  for await (const part of parts) {
    const name = part.fieldname;
    if (part.type === 'file') {
      if (!FILE_FIELDS.includes(name)) throw new GatewayError('invalid_request', `Invalid '${name}': only image, image[] and mask may be files`, { param: name });
      if (name === 'mask' && form.files.some((file) => file.field === 'mask')) throw new GatewayError('invalid_request', "Invalid 'mask': given more than once", { param: 'mask' });
      const bytes = await part.toBuffer();
      form.files.push({ field: name, bytes, filename: part.filename || undefined, contentType: part.mimetype || undefined });
      continue;
    }
    if (Object.hasOwn(form.fields, name)) throw new GatewayError('invalid_request', `Invalid '${name}': given more than once`, { param: name });
    if (part.valueTruncated) throw new GatewayError('invalid_request', `Invalid '${name}': longer than ${MAX_FIELD_BYTES} bytes`, { param: name });
    form.fields[name] = typeof part.value === 'string' ? part.value : String(part.value);
  }
  return form;
}

/** The form again, `model` set to `model`: the text fields, then the files in their order. */
export function encodeForm(form: EditForm, model: string): { contentType: string; bytes: Buffer } {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  const head = (disposition: string, type?: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`);
  for (const [name, value] of Object.entries({ ...form.fields, model })) {
    chunks.push(head(`name="${quoted(name)}"`), Buffer.from(value), Buffer.from('\r\n'));
  }
  for (const file of form.files) {
    chunks.push(head(`name="${quoted(file.field)}"; filename="${quoted(file.filename ?? 'image.png')}"`, file.contentType ?? 'application/octet-stream'), file.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(chunks) };
}

const quoted = (text: string): string => text.replace(/["\r\n\\]/g, '_');
