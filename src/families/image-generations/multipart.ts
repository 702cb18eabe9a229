/**
 * An image edit's form (http/multipart-form.ts): the files `image`,
 * `image[]` (OpenAI takes up to 16) and one `mask`, and its text fields, one
 * value each; written again for a server that takes edits itself.
 */
import type { FastifyRequest } from 'fastify';
import type { ImageFile } from '../../dialects/openai-images/wire.js';
import { encodeMultipartForm, type MultipartForm, readMultipartForm } from '../../http/multipart-form.js';

export interface EditForm {
  fields: Record<string, string>;
  files: ImageFile[];
  /** The form as read, to write again. */
  parts: MultipartForm;
}

export async function readEditForm(request: FastifyRequest, maxBytes: number): Promise<EditForm> {
  const parts = await readMultipartForm(request, {
    what: 'the edit (image files and text fields)',
    fileFields: ['image', 'image[]', 'mask'],
    singleFiles: ['mask'],
    maxFiles: 17,
    maxFileBytes: maxBytes,
  });
  const fields = Object.fromEntries(Object.entries(parts.fields).map(([name, values]) => [name, values[0] ?? '']));
  return { fields, files: parts.files, parts };
}

export const encodeForm = (form: EditForm, model: string) => encodeMultipartForm(form.parts, model, 'image.png');
