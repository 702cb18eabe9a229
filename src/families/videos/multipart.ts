/**
 * Reads a `multipart/form-data` body into text fields and at most one file,
 * within bounds: a field given twice, a file under another name, or a field
 * longer than allowed is a 400 naming it.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';

export interface UploadedFile {
  field: string;
  bytes: Buffer;
  filename?: string;
}

export interface MultipartBody {
  fields: Record<string, string>;
  file?: UploadedFile;
}

const MAX_FIELD_BYTES = 256 * 1024;

export async function readMultipart(request: FastifyRequest, fileFields: readonly string[], maxFileBytes: number): Promise<MultipartBody> {
  try {
    return await readParts(request, fileFields, maxFileBytes);
  } catch (error) {
    throw asClientError(error);
  }
}

/**
 * The form parser throws plain errors for a body the client broke (no
 * boundary, a boundary the body never uses, a body cut inside a part): those
 * are 400s, not gateway failures. Limit errors already carry a 4xx status.
 */
function asClientError(error: unknown): unknown {
  if (error instanceof GatewayError) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status >= 400 && status < 500) return error;
  const message = error instanceof Error ? error.message : '';
  if (/boundary not found/i.test(message)) {
    return new GatewayError('invalid_request', 'multipart/form-data: the content-type names no boundary');
  }
  return new GatewayError('invalid_request', 'multipart/form-data: the body is malformed or ends inside a part (check the boundary)');
}

async function readParts(request: FastifyRequest, fileFields: readonly string[], maxFileBytes: number): Promise<MultipartBody> {
  const body: MultipartBody = { fields: {} };
  const parts = request.parts({ limits: { files: 1, fields: 32, parts: 40, fieldSize: MAX_FIELD_BYTES, fileSize: maxFileBytes } });
  for await (const part of parts) {
    const name = part.fieldname;
    if (part.type === 'file') {
      if (!fileFields.includes(name)) {
        throw new GatewayError('invalid_request', `${name}: only ${fileFields.join(', ')} may be a file`, { param: name });
      }
      body.file = { field: name, bytes: await part.toBuffer(), filename: part.filename || undefined };
      continue;
    }
    if (Object.hasOwn(body.fields, name)) throw new GatewayError('invalid_request', `${name}: given more than once`, { param: name });
    if (part.valueTruncated) throw new GatewayError('invalid_request', `${name}: longer than ${MAX_FIELD_BYTES} bytes`, { param: name });
    body.fields[name] = typeof part.value === 'string' ? part.value : String(part.value);
  }
  return body;
}
