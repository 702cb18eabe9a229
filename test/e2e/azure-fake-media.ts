/**
 * The loopback Azure resource's image and audio routes (azure-fake.ts sends
 * them here once the credential was checked): `/openai/v1/{images,audio}/…`
 * with the deployment as the body's `model` (JSON or a form field), or
 * `/openai/deployments/{name}/{images,audio}/…` with an `api-version`. The
 * answers are OpenAI's shapes as Azure gives them: images with
 * `content_filter_results` and gpt-image token usage, speech as WAV or mp3
 * bytes, a transcript with token usage.
 */
import { PNG } from 'pngjs';
import { toneWav } from '../../src/dialects/openai-audio/wav.js';
import type { FakeReply, RecordedRequest } from '../upstreams/support/fake-upstream.js';

export const AZURE_PNG = PNG.sync.write(new PNG({ width: 2, height: 2 }));
export const AZURE_WAV = toneWav(0.5);
export const AZURE_MP3 = Buffer.from('ID3 azure mp3 bytes');

const MEDIA_ROUTE = /^\/openai\/(?:v1\/|deployments\/([^/]+)\/)?(images\/generations|images\/edits|audio\/speech|audio\/transcriptions|audio\/translations)$/;

const json = (status: number, body: unknown): FakeReply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const notFound = (code: string, message: string) => json(404, { error: { code, message } });

const filtered = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};

/** The answer of a media route, or undefined when the path is none of them. */
export function serveMedia(request: RecordedRequest, url: URL, deployments: ReadonlySet<string>): FakeReply | undefined {
  const route = MEDIA_ROUTE.exec(url.pathname);
  if (!route) return undefined;
  const v1 = url.pathname.startsWith('/openai/v1/');
  if (v1 === url.searchParams.has('api-version')) return notFound('404', 'Resource not found');
  const multipart = String(request.headers['content-type']).startsWith('multipart/form-data');
  const fields = multipart ? formFields(request.body) : (request.json() as Record<string, unknown>);
  const deployment = route[1] !== undefined ? decodeURIComponent(route[1]) : String(fields.model);
  if (!deployments.has(deployment)) return notFound('DeploymentNotFound', 'The API deployment for this resource does not exist.');
  switch (route[2]) {
    case 'images/generations':
    case 'images/edits': {
      const n = Number(fields.n ?? 1);
      const data = Array.from({ length: n }, () => ({ b64_json: AZURE_PNG.toString('base64'), content_filter_results: filtered }));
      return json(200, { created: 1_764_000_000, data, usage: { input_tokens: 12 * n, output_tokens: 272 * n, total_tokens: 284 * n } });
    }
    case 'audio/speech':
      return fields.response_format === 'wav'
        ? { status: 200, headers: { 'content-type': 'audio/wav' }, body: AZURE_WAV }
        : { status: 200, headers: { 'content-type': 'audio/mpeg' }, body: AZURE_MP3 };
    case 'audio/transcriptions':
      if (fields.response_format === 'text') return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'azure heard you\n' };
      return json(200, { text: 'azure heard you', usage: { type: 'tokens', input_tokens: 30, output_tokens: 4, total_tokens: 34 } });
    default:
      return json(200, { text: 'azure translated you' });
  }
}

/** A form's text fields (the file part skipped). */
function formFields(body: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of body.toString('latin1').matchAll(/name="([^"]+)"\r\n\r\n([^\r]*)\r\n/g)) fields[match[1]] = match[2];
  return fields;
}
