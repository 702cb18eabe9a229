/**
 * `POST /v1/files`: a multipart form with one `file` and the text fields
 * `purpose` and `expires_after[anchor]`/`expires_after[seconds]`, in any
 * order (the official clients send the file first). The file's bytes go
 * straight to the media store as they arrive, within the size bound, so a
 * large upload is never held in memory; a form that then turns out wrong
 * leaves nothing stored.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import { FILE_EXPIRY_SECONDS } from '../../storage/files.js';
import type { MediaStore } from '../../tasks/media.js';
import type { MediaRef } from '../../tasks/types.js';

/** The purposes OpenAI takes; only `batch` files are read by the gateway. */
export const UPLOAD_PURPOSES = ['batch', 'user_data', 'assistants', 'vision', 'fine-tune', 'evals'] as const;
const { min: MIN_EXPIRY_SECONDS, max: MAX_EXPIRY_SECONDS } = FILE_EXPIRY_SECONDS;
const MAX_FIELD_BYTES = 1024;

export interface Upload {
  stored: MediaRef;
  filename: string;
  purpose: string;
  /** Seconds after creation the file expires, when asked. */
  expiresAfterSeconds?: number;
}

export async function readUpload(request: FastifyRequest, media: MediaStore, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) throw new GatewayError('invalid_request', 'send the file as multipart/form-data (a `file` and a `purpose`)', { status: 415 });
  const fields: Record<string, string> = {};
  let file: { stored: MediaRef; filename: string } | undefined;
  try {
    const parts = request.parts({ limits: { files: 1, fields: 8, parts: 9, fieldSize: MAX_FIELD_BYTES, fileSize: maxBytes } });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw invalidRequest(`Invalid '${part.fieldname}': only 'file' may be a file`, part.fieldname);
        const stored = await media.putStream(part.file, 'application/octet-stream').catch((error: unknown) => {
          if ((error as { statusCode?: number }).statusCode === 413) throw tooLarge(maxBytes);
          throw error;
        });
        file = { stored, filename: part.filename || 'file' };
        continue;
      }
      if (Object.hasOwn(fields, part.fieldname)) throw invalidRequest(`Invalid '${part.fieldname}': given more than once`, part.fieldname);
      if (part.valueTruncated) throw invalidRequest(`Invalid '${part.fieldname}': longer than ${MAX_FIELD_BYTES} bytes`, part.fieldname);
      fields[part.fieldname] = String(part.value);
    }
    if (!file) throw invalidRequest("Missing required parameter: 'file'.", 'file');
    return { ...file, ...checkedFields(fields) };
  } catch (error) {
    if (file) await media.remove(file.stored.key).catch(() => undefined);
    if (error instanceof GatewayError) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) throw tooLarge(maxBytes);
    if (status !== undefined && status >= 400 && status < 500) throw invalidRequest('multipart/form-data: too many parts or files (one `file`, a `purpose`, `expires_after`)');
    throw invalidRequest('multipart/form-data: the body is malformed or ends inside a part (check the boundary)');
  }
}

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError('invalid_request', `Invalid 'file': larger than ${maxBytes} bytes, the gateway's file size limit (SWITCHYARD_FILE_MAX_BYTES)`, {
    status: 413,
    param: 'file',
  });
}

function checkedFields(fields: Record<string, string>): { purpose: string; expiresAfterSeconds?: number } {
  for (const name of Object.keys(fields)) {
    if (name !== 'purpose' && name !== 'expires_after[anchor]' && name !== 'expires_after[seconds]') throw invalidRequest(`Unrecognized request argument supplied: ${name}`, name);
  }
  const purpose = fields.purpose;
  if (purpose === undefined) throw invalidRequest("Missing required parameter: 'purpose'.", 'purpose');
  if (!(UPLOAD_PURPOSES as readonly string[]).includes(purpose)) throw invalidRequest(`Invalid 'purpose': expected one of ${UPLOAD_PURPOSES.join(', ')}`, 'purpose');
  const anchor = fields['expires_after[anchor]'];
  const seconds = fields['expires_after[seconds]'];
  if (anchor === undefined && seconds === undefined) return { purpose };
  if (anchor !== 'created_at') throw invalidRequest("Invalid 'expires_after[anchor]': expected 'created_at'", 'expires_after[anchor]');
  const value = Number(seconds);
  if (seconds === undefined || !/^\d+$/.test(seconds) || value < MIN_EXPIRY_SECONDS || value > MAX_EXPIRY_SECONDS) {
    throw invalidRequest(`Invalid 'expires_after[seconds]': expected an integer from ${MIN_EXPIRY_SECONDS} to ${MAX_EXPIRY_SECONDS}`, 'expires_after[seconds]');
  }
  return { purpose, expiresAfterSeconds: value };
}
