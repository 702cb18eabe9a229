/**
 * Helpers for video tests: a small HTTP client for both request shapes,
 * waiting for a video to finish, and small PNG reference images.
 */
import { PNG } from 'pngjs';

export interface VideoResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  bytes: Buffer;
}

export interface VideoHttp {
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<VideoResponse<T>>;
  post<T = any>(path: string, body: unknown): Promise<VideoResponse<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<VideoResponse<T>>;
  /** Polls `GET /v1/videos/{id}` until the video is final (or `until` holds). */
  waitFor(id: string, until?: (video: any) => boolean, timeoutMs?: number): Promise<any>;
}

export function videoHttp(baseUrl: string, key: string): VideoHttp {
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<VideoResponse> => {
    const isForm = body instanceof FormData;
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : isForm ? body : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    let parsed: unknown = bytes;
    if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(bytes.toString('utf8'));
    return { status: response.status, body: parsed, headers: response.headers, bytes };
  };
  const client: VideoHttp = {
    request,
    post: (path, body) => request('POST', path, body),
    get: (path, headers) => request('GET', path, undefined, headers),
    async waitFor(id, until = (video) => video.status === 'succeeded' || video.status === 'failed', timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { status, body } = await client.get(`/v1/videos/${id}`);
        if (status === 200 && until(body)) return body;
        if (Date.now() > deadline) throw new Error(`video ${id} did not get there in time; last: ${JSON.stringify(body)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
  return client;
}

/** A PNG of one colour (or a left/right split of two). */
export function pngBytes(width: number, height: number, left: [number, number, number], right = left): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) png.data.set([...(x < width / 2 ? left : right), 255], (y * width + x) * 4);
  }
  return PNG.sync.write(png);
}

export const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;
