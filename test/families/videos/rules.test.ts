/**
 * The family's pure rules: sizes and tiers, byte ranges, prices per second
 * by tier, the simulator's clock and scaling, and the status words of both
 * shapes.
 */
import { describe, expect, it } from 'vitest';
import { PriceTable } from '../../../src/billing/prices.js';
import { parseRange } from '../../../src/families/videos/content.js';
import { kindOf } from '../../../src/families/videos/models.js';
import { pricePerSecond, videoCost } from '../../../src/families/videos/pricing.js';
import { renderGeneration, renderVideo } from '../../../src/families/videos/render.js';
import { parseSize, parseTier, tierOf } from '../../../src/families/videos/sizes.js';
import { encodedSize } from '../../../src/upstreams/simulator/videos/plan.js';
import { observeVideo } from '../../../src/upstreams/simulator/videos/timeline.js';
import { videoRequest, videoTask } from '../../upstreams/openai-videos/records.js';

describe('video rules', () => {
  it('places sizes in tiers and reads tier names', () => {
    expect(tierOf(832, 480)).toBe('480P');
    expect(tierOf(624, 624)).toBe('480P');
    expect(tierOf(720, 1280)).toBe('720P');
    expect(tierOf(1088, 832)).toBe('720P');
    expect(tierOf(1024, 1792)).toBe('1080P');
    expect(tierOf(3840, 2160)).toBe('1080P');
    expect(tierOf(320, 240)).toBe('480P');
    expect(parseTier('720p')).toBe('720P');
    expect(parseTier('1280P')).toBe('720P');
    expect(parseTier('832P')).toBe('480P');
    expect(parseTier('1632P')).toBe('1080P');
    expect(parseTier('1248P')).toBeUndefined();
    expect(parseTier('4K')).toBeUndefined();
    expect(parseSize('1280P', 'tiered', 'wan')).toEqual({ width: 1280, height: 720, resolution: '720P' });
    expect(parseSize('1440P', 'tiered', 'wan')).toEqual({ width: 1440, height: 1440, resolution: '1080P' });
    expect(parseSize('480P', 'tiered', 'wan')).toEqual({ width: 832, height: 480, resolution: '480P' });
    expect(parseSize(' 832 * 1088 ', 'tiered', 'wan')).toEqual({ width: 832, height: 1088 });
    expect(parseSize('1792x1024', 'standard', 'sora-2')).toEqual({ width: 1792, height: 1024 });
    expect(() => parseSize('1792*1024', 'standard', 'sora-2')).toThrow(/<width>x<height>/);
    expect(kindOf('wan2.5-t2v-preview')).toBe('tiered');
    expect(kindOf('wanx2.1-i2v-turbo')).toBe('tiered');
    expect(kindOf('sora-2')).toBe('standard');
    expect(kindOf('wanderer')).toBe('standard');
    expect(kindOf('house', 'wan')).toBe('tiered');
    expect(kindOf('house', 'openai-videos', 'wan2.2-t2v-plus')).toBe('tiered');
  });

  it('reads byte ranges', () => {
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 100)).toBeUndefined();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(parseRange('items=0-1', 100)).toBeUndefined();
  });

  it('prices seconds by model and tier', () => {
    const prices = new PriceTable({
      'sora-2': { perSecond: 0.1 },
      'wan*': { perSecond: { '480P': 0.05, '1080P': 0.15, '*': 0.1 } },
      'tiers-only': { perSecond: { '1080P': 1 } },
    });
    expect(pricePerSecond(prices, 'sora-2', '1080P')).toBe(0.1);
    expect(pricePerSecond(prices, 'wan2.5-i2v', '480P')).toBe(0.05);
    expect(pricePerSecond(prices, 'wan2.5-i2v', '720P')).toBe(0.1);
    // No price for the tier, or none for the model: unpriced, not free.
    expect(pricePerSecond(prices, 'tiers-only', '720P')).toBeUndefined();
    expect(pricePerSecond(prices, 'unpriced', '720P')).toBeUndefined();
    expect(videoCost(prices, 'unpriced', '720P', 4)).toBeUndefined();
    expect(videoCost(prices, 'wan2.5-i2v', '1080P', 10)).toBe(1.5);
    expect(videoCost(prices, 'wan2.5-i2v', '480P', 3)).toBe(0.15);
  });

  it('walks the simulator clock forward and scales sizes down', () => {
    const schedule = { startAt: 1_000, durationMs: 1_000 };
    expect(observeVideo(schedule, 1_050)).toMatchObject({ status: 'SUBMITTED', progress: 0, nextPollInMs: 50 });
    expect(observeVideo(schedule, 1_200)).toMatchObject({ status: 'IN_PROGRESS', progress: 20 });
    expect(observeVideo(schedule, 1_999)).toMatchObject({ status: 'IN_PROGRESS', progress: 90 });
    expect(observeVideo(schedule, 2_000)).toMatchObject({ status: 'SUCCESS', progress: 100, finishTime: 2_000 });
    expect(observeVideo({ ...schedule, failReason: 'no' }, 2_500)).toMatchObject({ status: 'FAILURE', failReason: 'no', result: { errorCode: 'simulated_failure' } });
    expect(encodedSize(720, 1280, 320)).toEqual({ width: 180, height: 320 });
    expect(encodedSize(1920, 1080, 320)).toEqual({ width: 320, height: 180 });
    expect(encodedSize(1000, 10, 320)).toEqual({ width: 320, height: 16 });
    expect(encodedSize(100, 60, 320)).toEqual({ width: 100, height: 60 });
  });

  it('renders the spec status words and both shapes', () => {
    const request = videoRequest({ seconds: 8, width: 1280, height: 720, seed: 5, remixOf: '1700000000000123' });
    const processing = videoTask(request, { status: 'IN_PROGRESS', progress: 40 });
    expect(renderVideo(processing, { retentionMs: 1000 })).toMatchObject({
      status: 'processing',
      progress: 40,
      size: '1280x720',
      seconds: '8',
      expires_at: null,
      completed_at: null,
      remixed_from_video_id: '1700000000000123',
      error: null,
    });
    const media = [{ key: `${'a'.repeat(32)}.mp4`, contentType: 'video/mp4', size: 10, role: 'video' }];
    const done = videoTask(request, { status: 'SUCCESS', progress: 90, finishTime: 5_000_000, updatedAt: Date.now(), result: { media, fps: 24 } });
    const video = renderVideo(done, { retentionMs: 60_000, base: 'http://gw' });
    expect(video).toMatchObject({ status: 'succeeded', progress: 100, completed_at: 5000, url: `http://gw/v1/videos/files/${'a'.repeat(32)}.mp4` });
    expect(video.expires_at).toBe(Math.floor((done.updatedAt + 60_000) / 1000));
    const expired = renderVideo({ ...done, updatedAt: Date.now() - 120_000 }, { retentionMs: 60_000 });
    expect(expired.url).toBeUndefined();
    expect(renderGeneration(done, { retentionMs: 60_000 })).toMatchObject({ status: 'succeeded', metadata: { duration: 8, fps: 24, width: 1280, height: 720, seed: 5 }, error: null });
    const failed = videoTask(request, { status: 'FAILURE', failReason: 'the task did not finish within 60 seconds', finishTime: 1 });
    expect(renderVideo(failed, { retentionMs: 1 }).error).toEqual({ code: 'timeout', message: 'the task did not finish within 60 seconds' });
    expect(renderGeneration(failed, { retentionMs: 1 }).error).toEqual({ code: 504, message: 'the task did not finish within 60 seconds' });
  });
});
