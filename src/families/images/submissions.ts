/**
 * The endpoints that start new work: imagine, blend, describe, shorten and
 * face swap. Each validates its body, turns it into an image-task request and
 * hands it to the shared submission path.
 */
import { GatewayError } from '../../core/errors.js';
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import type { ImageAction, ImageTaskRequest, InputImage } from '../../tasks/image-contract.js';
import type { MediaRef } from '../../tasks/types.js';
import type { Envelope } from './errors.js';
import { decodeImage } from './images-input.js';
import { mediaUrl } from './render.js';
import { blendSchema, describeSchema, faceSwapSchema, imagineSchema, parseBody, shortenSchema, type AccountFilter } from './schema.js';
import { submitImageTask, type ImageRequestMeta } from './submit.js';

export interface SubmitContext {
  ctx: AppContext;
  key: ClientKey;
  meta: ImageRequestMeta;
  /** Base of the absolute URLs handed out (SWITCHYARD_PUBLIC_URL, or the address the client used). */
  publicBase: string;
}

interface Common {
  botType?: 'MID_GEN' | 'NIJI_GEN';
  accountFilter?: AccountFilter;
  notifyHook?: string;
  state?: string;
}

export function checkHook(ctx: AppContext, hook: string | undefined): string | undefined {
  if (hook === undefined) return undefined;
  ctx.tasks.guard.checkUrl(hook, 'notifyHook');
  return hook;
}

async function keep(ctx: AppContext, images: InputImage[]): Promise<MediaRef[]> {
  return Promise.all(images.map((image) => ctx.tasks.media.put({ bytes: image.bytes, contentType: image.contentType })));
}

function submit(sc: SubmitContext, action: ImageAction, common: Common, request: Omit<ImageTaskRequest, 'botType' | 'state' | 'publicBase'>, images: InputImage[]): Promise<Envelope> {
  const notifyHook = checkHook(sc.ctx, common.notifyHook);
  return submitImageTask(
    sc.ctx,
    sc.key,
    {
      action,
      request: { ...request, botType: common.botType ?? 'MID_GEN', state: common.state ?? '', publicBase: sc.publicBase },
      payload: { images, accountFilter: common.accountFilter },
      notifyHook,
      accountFilter: common.accountFilter,
    },
    sc.meta,
  );
}

export async function submitImagine(sc: SubmitContext, body: unknown): Promise<Envelope> {
  const req = parseBody(imagineSchema(), body);
  const images = (req.base64Array ?? []).map((value, i) => decodeImage(value, `base64Array.${i}`));
  checkHook(sc.ctx, req.notifyHook);
  // Padding images are kept by the gateway and named by URL in front of the prompt, as the service does.
  const inputMedia = await keep(sc.ctx, images);
  const promptEn = [...inputMedia.map((ref) => mediaUrl(sc.publicBase, ref)), req.prompt].join(' ');
  return submit(
    sc,
    'IMAGINE',
    req,
    {
      endpoint: 'imagine',
      prompt: req.prompt,
      promptEn,
      imageDigests: images.map((image) => image.digest),
      inputMedia,
    },
    images,
  );
}

export async function submitBlend(sc: SubmitContext, body: unknown): Promise<Envelope> {
  const req = parseBody(blendSchema(), body);
  const images = req.base64Array.map((value, i) => decodeImage(value, `base64Array.${i}`));
  return submit(
    sc,
    'BLEND',
    req,
    {
      endpoint: 'blend',
      prompt: '',
      promptEn: '',
      dimensions: req.dimensions ?? 'SQUARE',
      imageDigests: images.map((image) => image.digest),
      inputMedia: [],
    },
    images,
  );
}

export async function submitDescribe(sc: SubmitContext, body: unknown): Promise<Envelope> {
  const req = parseBody(describeSchema(), body);
  const image = decodeImage(req.base64, 'base64');
  checkHook(sc.ctx, req.notifyHook);
  // The described image is the task's image.
  const inputMedia = await keep(sc.ctx, [image]);
  return submit(sc, 'DESCRIBE', req, { endpoint: 'describe', prompt: '', promptEn: '', imageDigests: [image.digest], inputMedia }, [image]);
}

export async function submitShorten(sc: SubmitContext, body: unknown): Promise<Envelope> {
  const req = parseBody(shortenSchema(), body);
  return submit(sc, 'SHORTEN', req, { endpoint: 'shorten', prompt: req.prompt, promptEn: req.prompt, imageDigests: [], inputMedia: [] }, []);
}

export async function submitFaceSwap(sc: SubmitContext, body: unknown): Promise<Envelope> {
  const req = parseBody(faceSwapSchema(), body);
  const source = decodeImage(req.sourceBase64, 'sourceBase64');
  const target = decodeImage(req.targetBase64, 'targetBase64');
  if (source.digest === target.digest) {
    throw new GatewayError('invalid_request', 'targetBase64: the face image and the target image must differ', { param: 'targetBase64' });
  }
  return submit(
    sc,
    'SWAP_FACE',
    req,
    {
      endpoint: 'swap_face',
      prompt: '',
      promptEn: '',
      imageDigests: [source.digest, target.digest],
      inputMedia: [],
    },
    [source, target],
  );
}
