/**
 * Reads an image request into the internal one: a generation's JSON body,
 * or an edit's multipart form (its text fields, numbers parsed, checked by
 * the same schema; `image`/`image[]` files in order, an optional `mask`). A
 * bad field is a 400 naming it.
 */
import { GatewayError } from '../../core/errors.js';
import { parseAsIs } from '../../core/accept-as-is.js';
import { issueError } from '../../dialects/openai/validate-issue.js';
import { DEFAULT_IMAGE_MODEL, imagesRequestSchema } from '../../dialects/openai-images/schema-request.js';
import { answersBytesOnly, type ImageFile, type ImageOperationName, type ImageRequest } from '../../dialects/openai-images/wire.js';

export function parseGenerationBody(body: unknown): ImageRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  return readFields('generations', body as Record<string, unknown>, []);
}

/** An edit's form: the text fields as the client sent them, and its files. */
export function parseEditForm(fields: Record<string, string>, files: ImageFile[]): ImageRequest {
  const images = files.filter((file) => file.field === 'image' || file.field === 'image[]');
  if (images.length === 0) throw new GatewayError('invalid_request', "Invalid 'image': field required (one or more image files)", { param: 'image' });
  return { ...readFields('edits', numbersParsed(fields), images), mask: files.find((file) => file.field === 'mask') };
}

function readFields(operation: ImageOperationName, body: Record<string, unknown>, images: ImageFile[]): ImageRequest {
  const result = parseAsIs(imagesRequestSchema(), body, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  const data = result.data;
  const model = data.model ?? DEFAULT_IMAGE_MODEL;
  return {
    operation,
    model,
    prompt: data.prompt,
    n: data.n ?? 1,
    size: data.size ?? undefined,
    responseFormat: answersBytesOnly(model) ? 'b64_json' : (data.response_format ?? 'url'),
    outputFormat: data.output_format ?? 'png',
    images,
    stream: data.stream === true,
  };
}

/** A form's fields are text: the numeric ones are read as numbers (a non-number stays text and fails the schema). */
function numbersParsed(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const name of ['n', 'partial_images', 'output_compression']) {
    const value = fields[name];
    if (value !== undefined && /^-?\d+$/.test(value.trim())) out[name] = Number(value.trim());
  }
  if (fields.stream !== undefined) out.stream = fields.stream === 'true' ? true : fields.stream === 'false' ? false : fields.stream;
  return out;
}
