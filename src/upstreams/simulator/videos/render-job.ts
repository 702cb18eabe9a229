/**
 * The work done on the encoder thread: paint the frames of a simulated video
 * and encode them as H.264 in MP4, paint its thumbnail and sprite sheet as
 * PNG, or shrink a reference image to a small backdrop. `runJob` is sent to
 * the thread as source text (see worker.ts), so it must stay self-contained:
 * no imports, no outer variables; its modules come in as arguments.
 */

export interface RenderPlan {
  /** Encoded pixel size (even numbers). */
  width: number;
  height: number;
  fps: number;
  /** Whole seconds. */
  seconds: number;
  seed: number;
  /** 16x16 RGB of the reference image, row by row, when there is one. */
  backdrop?: number[];
}

export type EncoderJob = { kind: 'render'; plan: RenderPlan } | { kind: 'backdrop'; bytes: Uint8Array };

export interface RenderOutput {
  video: Uint8Array;
  thumbnail: Uint8Array;
  spritesheet: Uint8Array;
  frames: number;
}

export interface BackdropOutput {
  backdrop: number[] | null;
}

/** The parts of the two modules the job uses. */
export interface EncoderModule {
  createH264MP4Encoder(): Promise<{
    width: number;
    height: number;
    frameRate: number;
    speed: number;
    quantizationParameter: number;
    groupOfPictures: number;
    outputFilename: string;
    initialize(): void;
    addFrameRgba(frame: Uint8Array): void;
    finalize(): void;
    delete(): void;
    FS: { readFile(path: string): Uint8Array; unlink(path: string): void };
  }>;
}

export interface PngModule {
  PNG: {
    new (options: { width: number; height: number }): { data: Uint8Array };
    sync: { write(png: unknown): Uint8Array; read(bytes: Uint8Array): { width: number; height: number; data: Uint8Array } };
  };
}

export const BACKDROP_SIDE = 16;

export async function runJob(job: EncoderJob, h264: EncoderModule, png: PngModule): Promise<RenderOutput | BackdropOutput> {
  const SIDE = 16;

  if (job.kind === 'backdrop') {
    let image: { width: number; height: number; data: Uint8Array };
    try {
      image = png.PNG.sync.read(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength));
    } catch {
      return { backdrop: null };
    }
    const out: number[] = [];
    for (let cy = 0; cy < SIDE; cy++) {
      for (let cx = 0; cx < SIDE; cx++) {
        const x0 = Math.floor((cx * image.width) / SIDE);
        const x1 = Math.max(x0 + 1, Math.floor(((cx + 1) * image.width) / SIDE));
        const y0 = Math.floor((cy * image.height) / SIDE);
        const y1 = Math.max(y0 + 1, Math.floor(((cy + 1) * image.height) / SIDE));
        const sum = [0, 0, 0];
        let count = 0;
        // A few samples per cell are enough for a backdrop.
        const stepX = Math.max(1, Math.floor((x1 - x0) / 4));
        const stepY = Math.max(1, Math.floor((y1 - y0) / 4));
        for (let y = y0; y < y1 && y < image.height; y += stepY) {
          for (let x = x0; x < x1 && x < image.width; x += stepX) {
            const i = (y * image.width + x) * 4;
            sum[0] += image.data[i];
            sum[1] += image.data[i + 1];
            sum[2] += image.data[i + 2];
            count++;
          }
        }
        out.push(...sum.map((value) => Math.round(value / Math.max(1, count))));
      }
    }
    return { backdrop: out };
  }

  const plan = job.plan;
  let state = plan.seed >>> 0 || 1;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const colour = () => [40 + Math.floor(random() * 200), 40 + Math.floor(random() * 200), 40 + Math.floor(random() * 200)];
  const from = colour();
  const to = colour();
  const disc = colour();
  const phase = random() * Math.PI * 2;

  /** One frame at time t (0..1) into `out` (RGBA), at any pixel size. */
  const paint = (out: Uint8Array, width: number, height: number, t: number) => {
    const angle = phase + t * Math.PI;
    const ax = Math.cos(angle);
    const ay = Math.sin(angle);
    const cx = (0.5 + 0.3 * Math.sin(2 * Math.PI * t + phase)) * width;
    const cy = (0.5 + 0.3 * Math.sin(4 * Math.PI * t + phase / 2)) * height;
    const radius = 0.14 * Math.min(width, height);
    const barTop = height - Math.max(2, Math.round(height * 0.04));
    const barEnd = Math.round(t * width);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        let r: number;
        let g: number;
        let b: number;
        if (plan.backdrop) {
          // Bilinear sample of the reference image's backdrop.
          const fx = Math.min(SIDE - 1.001, Math.max(0, (x / width) * SIDE - 0.5));
          const fy = Math.min(SIDE - 1.001, Math.max(0, (y / height) * SIDE - 0.5));
          const x0 = Math.floor(fx);
          const y0 = Math.floor(fy);
          const wx = fx - x0;
          const wy = fy - y0;
          const at = (px: number, py: number, c: number) => plan.backdrop![(py * SIDE + px) * 3 + c];
          const mix = (c: number) => (at(x0, y0, c) * (1 - wx) + at(x0 + 1, y0, c) * wx) * (1 - wy) + (at(x0, y0 + 1, c) * (1 - wx) + at(x0 + 1, y0 + 1, c) * wx) * wy;
          r = mix(0);
          g = mix(1);
          b = mix(2);
        } else {
          const s = Math.min(1, Math.max(0, 0.5 + ((x / width - 0.5) * ax + (y / height - 0.5) * ay)));
          r = from[0] + (to[0] - from[0]) * s;
          g = from[1] + (to[1] - from[1]) * s;
          b = from[2] + (to[2] - from[2]) * s;
        }
        const dx = x - cx;
        const dy = y - cy;
        if (dx * dx + dy * dy <= radius * radius) {
          r = disc[0];
          g = disc[1];
          b = disc[2];
        }
        if (y >= barTop && x < barEnd) {
          r = 250;
          g = 250;
          b = 250;
        }
        out[i] = r;
        out[i + 1] = g;
        out[i + 2] = b;
        out[i + 3] = 255;
      }
    }
  };

  const frames = Math.max(1, plan.seconds * plan.fps);
  const encoder = await h264.createH264MP4Encoder();
  let video: Uint8Array;
  try {
    encoder.width = plan.width;
    encoder.height = plan.height;
    encoder.frameRate = plan.fps;
    encoder.speed = 10;
    encoder.quantizationParameter = 30;
    encoder.groupOfPictures = plan.fps;
    encoder.outputFilename = `video-${plan.seed}-${Date.now()}.mp4`;
    encoder.initialize();
    const frame = new Uint8Array(plan.width * plan.height * 4);
    for (let index = 0; index < frames; index++) {
      paint(frame, plan.width, plan.height, frames === 1 ? 0 : index / (frames - 1));
      encoder.addFrameRgba(frame);
    }
    encoder.finalize();
    video = encoder.FS.readFile(encoder.outputFilename).slice();
    encoder.FS.unlink(encoder.outputFilename);
  } finally {
    encoder.delete();
  }

  const encodePng = (width: number, height: number, fill: (data: Uint8Array) => void) => {
    const image = new png.PNG({ width, height });
    fill(image.data);
    return png.PNG.sync.write(image);
  };
  const thumbnail = encodePng(plan.width, plan.height, (data) => paint(data, plan.width, plan.height, 0));
  // The sprite sheet: one tile per second (at most 10), five to a row, at half size.
  const tiles = Math.min(10, Math.max(2, plan.seconds));
  const columns = Math.min(5, tiles);
  const rows = Math.ceil(tiles / columns);
  const tileWidth = Math.max(2, Math.floor(plan.width / 2));
  const tileHeight = Math.max(2, Math.floor(plan.height / 2));
  const tile = new Uint8Array(tileWidth * tileHeight * 4);
  const spritesheet = encodePng(tileWidth * columns, tileHeight * rows, (data) => {
    for (let index = 0; index < tiles; index++) {
      paint(tile, tileWidth, tileHeight, (index + 0.5) / tiles);
      const left = (index % columns) * tileWidth;
      const top = Math.floor(index / columns) * tileHeight;
      for (let y = 0; y < tileHeight; y++) {
        const row = ((top + y) * tileWidth * columns + left) * 4;
        data.set(tile.subarray(y * tileWidth * 4, (y + 1) * tileWidth * 4), row);
      }
    }
  });
  return { video, thumbnail, spritesheet, frames };
}
