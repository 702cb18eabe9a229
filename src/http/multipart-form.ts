/**
 * A `multipart/form-data` request body read into its text fields and its
 * files within a family's bounds, and written again as a form for a server
 * that takes the operation itself (the model named being the channel's).
 * Image edits and audio transcriptions share it; each family states its
 * rules (which fields may be files, how many, how large). A text field
 * given twice is a 400 naming it, unless its name ends in `[]`; a file under
 * a name not allowed, or a second of a field that comes once, too.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';

export interface FormFile {
  field: string;
  bytes: Buffer;
  filename?: string;
  contentType?: string;
}

export interface MultipartForm {
  /** Each text field's values in order: one, or several for a `name[]` field. */
  fields: Record<string, string[]>;
  files: FormFile[];
}

export interface FormRules {
  /** What the body holds, for the 415 answer to another content type: "the edit (image files and text fields)". */
  what: string;
  fileFields: readonly string[];
  /** File fields that come at most once. */
  singleFiles: readonly string[];
  maxFiles: number;
  maxFileBytes: number;
  /** The field a too large file is named by in the 413, where there is one file field. */
  fileParam?: string;
}

const MAX_FIELD_BYTES = 64 * 1024;

export async function readMultipartForm(request: FastifyRequest, rules: FormRules): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new GatewayError('invalid_request', `send ${rules.what} as multipart/form-data`, { status: 415 });
  try {
    return await readParts(request, rules);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) {
      const which = rules.fileParam ? `Invalid '${rules.fileParam}': larger` : 'a file is larger';
      throw new GatewayError('invalid_request', `${which} than ${rules.maxFileBytes} bytes`, { status: 413, ...(rules.fileParam ? { param: rules.fileParam } : {}) });
    }
    if (status !== undefined && status >= 400 && status < 500) throw new GatewayError('invalid_request', 'multipart/form-data: too many parts or files');
    throw new GatewayError('invalid_request', 'multipart/form-data: the body is malformed or ends inside a part (check the boundary)');
  }
}

async function readParts(request: FastifyRequest, rules: FormRules): Promise<MultipartForm> {
  const form: MultipartForm = { fields: {}, files: [] };
  const parts = request.parts({ limits: { files: rules.maxFiles, fields: 32, parts: rules.maxFiles + 40, fieldSize: MAX_FIELD_BYTES, fileSize: rules.maxFileBytes } });
  for await (const part of parts) {
    const name = part.fieldname;
    if (part.type === 'file') {
      if (!rules.fileFields.includes(name)) throw new GatewayError('invalid_request', `Invalid '${name}': only ${rules.fileFields.join(', ')} may be files`, { param: name });
      if (rules.singleFiles.includes(name) && form.files.some((file) => file.field === name)) throw new GatewayError('invalid_request', `Invalid '${name}': given more than once`, { param: name });
      const bytes = await part.toBuffer();
      form.files.push({ field: name, bytes, filename: part.filename || undefined, contentType: part.mimetype || undefined });
      continue;
    }
    if (Object.hasOwn(form.fields, name) && !name.endsWith('[]')) throw new GatewayError('invalid_request', `Invalid '${name}': given more than once`, { param: name });
    if (part.valueTruncated) throw new GatewayError('invalid_request', `Invalid '${name}': longer than ${MAX_FIELD_BYTES} bytes`, { param: name });
    (form.fields[name] ??= []).push(typeof part.value === 'string' ? part.value : String(part.value));
  }
  return form;
}

/** The form again, `model` set to `model`: the text fields, then the files in their order (a file without a name gets `defaultFilename`). */
export function encodeMultipartForm(form: MultipartForm, model: string, defaultFilename: string): { contentType: string; bytes: Buffer } {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  const head = (disposition: string, type?: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`);
  for (const [name, values] of Object.entries({ ...form.fields, model: [model] })) {
    for (const value of values) chunks.push(head(`name="${quoted(name)}"`), Buffer.from(value), Buffer.from('\r\n'));
  }
  for (const file of form.files) {
    chunks.push(head(`name="${quoted(file.field)}"; filename="${quoted(file.filename ?? defaultFilename)}"`, file.contentType ?? 'application/octet-stream'), file.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(chunks) };
}

const quoted = (text: string): string => text.replace(/["\r\n\\]/g, '_');
