/**
 * The image simulator's parts: the clock, the plans (seeds, aspect, follow-ups
 * built on the parent's tiles), the painter's layouts, and its settings.
 */
import { describe, expect, it } from 'vitest';
import type { ImageTaskRequest } from '../../../src/tasks/image-contract.js';
import type { Channel } from '../../../src/core/channel.js';
import { imageSize, paint } from '../../../src/upstreams/simulator/images/painter.js';
import { planJob } from '../../../src/upstreams/simulator/images/plan.js';
import { resultFor } from '../../../src/upstreams/simulator/images/results.js';
import { readImageSimulatorSettings } from '../../../src/upstreams/simulator/images/settings.js';
import { aspectOf, seedOf, shortenPrompt } from '../../../src/upstreams/simulator/images/texts.js';
import { PROGRESS_STEPS, stateAt } from '../../../src/upstreams/simulator/images/timeline.js';
import { decodePng } from './support.js';

const request = (overrides: Partial<ImageTaskRequest> = {}): ImageTaskRequest => ({
  endpoint: 'imagine',
  botType: 'MID_GEN',
  prompt: 'a cat',
  promptEn: 'a cat',
  state: '',
  imageDigests: [],
  inputMedia: [],
  publicBase: 'http://gw',
  ...overrides,
});

describe('image simulator', () => {
  it('walks a task through its states on the clock', () => {
    const schedule = { startAt: 1_000, durationMs: 1_000 };
    expect(stateAt(schedule, 500)).toEqual({ status: 'NOT_START', progress: 0, nextInMs: 500 });
    expect(stateAt(schedule, 1_050)).toMatchObject({ status: 'SUBMITTED', progress: 0 });
    const progress = [1_150, 1_300, 1_450, 1_600, 1_750, 1_950].map((t) => stateAt(schedule, t));
    expect(progress.every((state) => state.status === 'IN_PROGRESS')).toBe(true);
    expect(progress.map((state) => state.progress)).toEqual(PROGRESS_STEPS);
    expect(stateAt(schedule, 2_000)).toEqual({ status: 'SUCCESS', progress: 100 });
    expect(stateAt({ ...schedule, failReason: 'no' }, 2_000)).toEqual({ status: 'FAILURE', progress: 0 });
  });

  it('reads --ar and --seed from the prompt', () => {
    expect(aspectOf('x --ar 16:9')).toEqual([16, 9]);
    expect(aspectOf('x --aspect 2:3 --v 6')).toEqual([2, 3]);
    expect(aspectOf('x --ar 100:1')).toEqual([4, 1]);
    expect(aspectOf('x')).toBeUndefined();
    expect(seedOf('x --seed 123')).toBe(123);
    expect(seedOf('x --seed 99999999999')).toBeUndefined();
  });

  it('plans the same job for the same request, and honours --seed', () => {
    expect(planJob('IMAGINE', request())).toEqual(planJob('IMAGINE', request()));
    expect(planJob('IMAGINE', request()).seed).not.toBe(planJob('IMAGINE', request({ promptEn: 'a dog' })).seed);
    expect(planJob('IMAGINE', request({ promptEn: 'a cat --seed 7' })).seed).toBe(7);
  });

  it('upscales one tile of the parent grid', () => {
    const parentPlan = planJob('IMAGINE', request({ promptEn: 'a cat --ar 3:2' }));
    const parentResult = resultFor('1', 'IMAGINE', request({ promptEn: 'a cat --ar 3:2' }), parentPlan);
    const child = planJob(
      'UPSCALE',
      request({
        endpoint: 'action',
        operation: { kind: 'upsample', index: 3 },
        parent: { id: '1', action: 'IMAGINE', prompt: 'a cat', finalPrompt: '', tiles: parentResult.tiles, aspect: parentResult.aspect },
      }),
    );
    expect(child.layout).toBe('single');
    expect(child.aspect).toEqual([3, 2]);
    expect(child.paint!.tiles).toEqual([parentPlan.paint!.tiles[2]]);
  });

  it('paints grids and single images of the planned size as valid PNGs', () => {
    const grid = paint({ layout: 'grid', aspect: [2, 3], tiles: [1, 2, 3, 4].map((s) => ({ k: 'p' as const, s })) }, 96);
    const decoded = decodePng(grid.bytes);
    expect([decoded.width, decoded.height]).toEqual([64, 96]);
    expect([grid.width, grid.height]).toEqual([64, 96]);
    expect(imageSize([1, 1], 101)).toEqual({ width: 102, height: 102 });
    const swap = paint({ layout: 'single', aspect: [1, 1], tiles: [{ k: 'swap', s: 1, face: 2 }] }, 32);
    expect(decodePng(swap.bytes).width).toBe(32);
  });

  it('builds results with describe and shorten suggestions', () => {
    const described = resultFor('2', 'DESCRIBE', request({ endpoint: 'describe', imageDigests: ['abc'] }), planJob('DESCRIBE', request({ endpoint: 'describe', imageDigests: ['abc'] })));
    expect(described.prompts).toHaveLength(4);
    expect(described.buttons).toHaveLength(5);
    expect(shortenPrompt('one two three four five six seven eight nine ten --ar 1:1')).toEqual([
      'one two three four five six seven eight nine ten --ar 1:1',
      'one two three four five six seven eight --ar 1:1',
      'one two three four five six --ar 1:1',
      'one two three four five --ar 1:1',
      'one two three --ar 1:1',
    ]);
  });

  it('names a bad setting', () => {
    const channel = { name: 'sim', settings: { taskSeconds: 'soon' } } as unknown as Channel;
    expect(() => readImageSimulatorSettings(channel)).toThrow(/simulator channel sim: settings.taskSeconds must be a number/);
    const fails = { name: 'sim', settings: { failTasks: 'yes' } } as unknown as Channel;
    expect(() => readImageSimulatorSettings(fails)).toThrow(/failTasks/);
    expect(readImageSimulatorSettings({ name: 'sim', settings: {} } as unknown as Channel)).toEqual({
      taskSeconds: 5,
      failTasks: false,
      concurrency: undefined,
      imageSize: 512,
    });
  });
});
