/**
 * The simulator's encoder thread: real H.264 MP4s of the asked duration,
 * frame rate and size (each frame counted), PNG thumbnail and sprite sheet,
 * reference-image backdrops (PNG only), several jobs at once, and the event
 * loop left free while it works.
 */
import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { backdropOf, renderVideo } from '../../../src/upstreams/simulator/videos/worker.js';
import { inspectMp4 } from './mp4.js';
import { pngBytes } from './support.js';

describe('the video encoder', () => {
  it('encodes real H.264 MP4s of the asked duration, rate and size', async () => {
    const [short, wide] = await Promise.all([renderVideo({ width: 48, height: 80, fps: 10, seconds: 1, seed: 1 }), renderVideo({ width: 96, height: 54, fps: 24, seconds: 3, seed: 2 })]);
    const a = inspectMp4(short.video);
    expect(a).toMatchObject({ width: 48, height: 80, samples: 10, sampleEntries: ['avc1'] });
    expect(a.seconds).toBeCloseTo(1, 3);
    expect(a.brands.length).toBeGreaterThan(0);
    const b = inspectMp4(wide.video);
    expect(b).toMatchObject({ width: 96, height: 54, samples: 72 });
    expect(b.seconds).toBeCloseTo(3, 3);
    const thumbnail = PNG.sync.read(Buffer.from(wide.thumbnail));
    expect([thumbnail.width, thumbnail.height]).toEqual([96, 54]);
    const sprite = PNG.sync.read(Buffer.from(wide.spritesheet));
    expect([sprite.width, sprite.height]).toEqual([48 * 3, 27]);
  });

  it('keeps the event loop free while encoding', async () => {
    // The longest gap between ticks, not their number: a loaded machine delays every tick, but only
    // work on the loop itself stalls it for a large part of the encode.
    let last = Date.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = Date.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = Date.now();
    await renderVideo({ width: 160, height: 96, fps: 24, seconds: 4, seed: 3 });
    clearInterval(timer);
    const elapsed = Date.now() - started;
    expect(longestGap).toBeLessThan(Math.max(elapsed / 2, 50));
  });

  it('shrinks a PNG reference to a backdrop and ignores other formats', async () => {
    const backdrop = await backdropOf(pngBytes(40, 20, [250, 0, 0], [0, 0, 250]));
    expect(backdrop).toHaveLength(16 * 16 * 3);
    expect(backdrop!.slice(0, 3)).toEqual([250, 0, 0]);
    expect(backdrop!.slice(15 * 3, 16 * 3)).toEqual([0, 0, 250]);
    expect(await backdropOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]))).toBeNull();
  });
});
