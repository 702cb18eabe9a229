/**
 * OpenAI image requests translated for the content-generation dialect's
 * image models (`gemini-2.5-flash-image`, …): one `generateContent` call per
 * image asked (`n`), the prompt as text after an edit's images (and its mask,
 * with a sentence saying what it marks) as inline data, `responseModalities:
 * ['IMAGE']`, and the asked size as the nearest aspect ratio the models take
 * (`imageConfig.aspectRatio`; they choose the pixels). The first inline
 * image of each answer is the image; the calls' token usage is summed (the
 * models bill their images as output tokens). An answer with no image (a
 * text-only model, a refusal) is an upstream error, not an empty answer.
 */
import { GatewayError } from '../../../core/errors.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import type { ImageFile, ImageRequest, ImageResponse, MadeImage } from '../../../dialects/openai-images/wire.js';
import { callExchange } from '../../call-exchange.js';
import { translatedBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { ImageOperation, UpstreamCall } from '../../types.js';
import { requestJsonOk } from '../../whole-answer.js';
import type { GenerateEndpoint } from './endpoint.js';
import { throwGeminiStatus } from './errors.js';
import type { GenerateSettings } from './settings.js';

const RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;

const MASK_NOTE = 'The last image is a mask: edit only where it is transparent, keep the rest.';

interface GenerateAnswer {
  candidates?: Array<{ content?: { parts?: Array<{ text?: string; inlineData?: { mimeType?: string; data?: string }; thought?: boolean }> }; finishReason?: string }>;
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number };
}

export function generateImages<S extends GenerateSettings>(endpoint: GenerateEndpoint<S>): ImageOperation {
  return {
    offered: () => true,
    serve: (request, call) => whenHeaders(endpoint.headers(call), makeImages, endpoint, request, call),
  };
}

async function makeImages(headers: RequestHeaders, endpoint: GenerateEndpoint<GenerateSettings>, request: ImageRequest, call: UpstreamCall): Promise<ImageResponse> {
  const body = translatedBody(endpoint, bodyOf(request), call, 'generateContent', headers);
  const answers = await Promise.all(
    Array.from({ length: request.n }, () => requestJsonOk<GenerateAnswer>(callExchange(call, endpoint.url(call, 'generateContent'), headers, body, throwGeminiStatus), limitsOf(call).maxBodyBytes)),
  );
  const images: MadeImage[] = answers.map(imageOf);
  const sum = (read: (answer: GenerateAnswer) => number | undefined) => answers.reduce((total, answer) => total + (read(answer) ?? 0), 0);
  return {
    images,
    inputTokens: sum((answer) => answer.usageMetadata?.promptTokenCount),
    outputTokens: sum((answer) => (answer.usageMetadata?.candidatesTokenCount ?? 0) + (answer.usageMetadata?.thoughtsTokenCount ?? 0)),
  };
}

function bodyOf(request: ImageRequest): Record<string, unknown> {
  const files: ImageFile[] = request.mask ? [...request.images, request.mask] : request.images;
  const parts: Array<Record<string, unknown>> = files.map((file) => ({ inlineData: { mimeType: file.contentType ?? 'image/png', data: file.bytes.toString('base64') } }));
  parts.push({ text: request.mask ? `${request.prompt}\n\n${MASK_NOTE}` : request.prompt });
  const generationConfig: Record<string, unknown> = { responseModalities: ['IMAGE'] };
  const ratio = ratioOf(request.size);
  if (ratio) generationConfig.imageConfig = { aspectRatio: ratio };
  return { contents: [{ role: 'user', parts }], generationConfig };
}

/** The supported aspect ratio nearest the asked size; none for `auto` or no size. */
export function ratioOf(size: string | undefined): string | undefined {
  if (!size || size === 'auto') return undefined;
  const [width, height] = size.split('x').map(Number);
  const wanted = Math.log(width / height);
  let best: string = RATIOS[0];
  for (const ratio of RATIOS) {
    const [w, h] = ratio.split(':').map(Number);
    const [bw, bh] = best.split(':').map(Number);
    if (Math.abs(Math.log(w / h) - wanted) < Math.abs(Math.log(bw / bh) - wanted)) best = ratio;
  }
  return best;
}

function imageOf(answer: GenerateAnswer): MadeImage {
  const parts = answer.candidates?.[0]?.content?.parts ?? [];
  const image = parts.find((part) => !part.thought && typeof part.inlineData?.data === 'string');
  if (!image) {
    const reason = answer.candidates?.[0]?.finishReason;
    throw new GatewayError('upstream_error', `upstream answered an image request with no image${reason ? ` (finish reason ${reason})` : ''}; is the model an image model?`);
  }
  return { bytes: Buffer.from(image.inlineData!.data!, 'base64') };
}
