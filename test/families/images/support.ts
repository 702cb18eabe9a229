/**
 * Helpers for image-task tests: a tiny HTTP client for the /ig API, waiting
 * for a task to reach a state, and small input images of each format.
 */
import { PNG } from 'pngjs';

export interface IgResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface IgClient {
  post<T = any>(path: string, body: unknown): Promise<IgResponse<T>>;
  get<T = any>(path: string): Promise<IgResponse<T>>;
  /** Polls fetch until the task is final (or `until` holds). */
  waitFor(id: string, until?: (task: any) => boolean, timeoutMs?: number): Promise<any>;
}

export function igClient(baseUrl: string, key: string): IgClient {
  const call = async (method: string, path: string, body?: unknown): Promise<IgResponse> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
  const client: IgClient = {
    post: (path, body) => call('POST', path, body),
    get: (path) => call('GET', path),
    async waitFor(id, until = (task) => ['SUCCESS', 'FAILURE', 'CANCEL'].includes(task.status), timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { status, body } = await client.get(`/ig/task/${id}/fetch`);
        if (status === 200 && until(body)) return body;
        if (Date.now() > deadline) throw new Error(`task ${id} did not get there in time; last: ${JSON.stringify(body)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
  return client;
}

/** A small PNG of one colour, as a data URL. */
export function pngDataUrl(r: number, g: number, b: number, size = 8): string {
  const png = new PNG({ width: size, height: size });
  for (let i = 0; i < size * size; i++) png.data.set([r, g, b, 255], i * 4);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

export function decodePng(bytes: Buffer): PNG {
  return PNG.sync.read(bytes);
}

/** Average colour of a rectangle of a decoded PNG. */
export function averageColour(png: PNG, x0: number, y0: number, width: number, height: number): [number, number, number] {
  const sum = [0, 0, 0];
  for (let y = y0; y < y0 + height; y++) {
    for (let x = x0; x < x0 + width; x++) {
      const at = (y * png.width + x) * 4;
      sum[0] += png.data[at];
      sum[1] += png.data[at + 1];
      sum[2] += png.data[at + 2];
    }
  }
  const n = width * height;
  return [sum[0] / n, sum[1] / n, sum[2] / n];
}

export const distance = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** A minimal JPEG header (enough for format sniffing), a static GIF, an animated GIF, a WEBP header. */
export const JPEG_DATA_URL = `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]).toString('base64')}`;

function gif(frames: number): string {
  const header = Buffer.from('GIF89a', 'latin1');
  const screen = Buffer.from([1, 0, 1, 0, 0x80, 0, 0]);
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  const frame = Buffer.from([0x21, 0xf9, 4, 0, 10, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]);
  const parts = [header, screen, palette];
  for (let i = 0; i < frames; i++) parts.push(frame);
  parts.push(Buffer.from([0x3b]));
  return `data:image/gif;base64,${Buffer.concat(parts).toString('base64')}`;
}

export const STATIC_GIF_DATA_URL = gif(1);
export const ANIMATED_GIF_DATA_URL = gif(3);
export const WEBP_DATA_URL = `data:image/webp;base64,${Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L', 'latin1'), Buffer.from([13, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0])]).toString('base64')}`;
