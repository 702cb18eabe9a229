/**
 * Each channel type's settings schema: defaults, the refusals it keeps from
 * the readers it replaced, unknown keys named with the closest known one,
 * and the leniency a stored channel keeps for keys read leniently before.
 */
import { describe, expect, it, vi } from 'vitest';
import { CHANNEL_TYPES, channelType } from '../../src/upstreams/registry.js';
import { channelSettings, checkChannelSettings, settingsJsonSchema } from '../../src/upstreams/settings-check.js';

const spec = (type: string) => channelType(type)!.settings;
const written = (type: string, settings: Record<string, unknown>) => checkChannelSettings(type, spec(type), settings, false);
const stored = (type: string, settings: Record<string, unknown>) => checkChannelSettings(type, spec(type), settings, true);

describe('channel settings schemas', () => {
  it('are built at their first read, once: a start builds only the types its channels use', () => {
    const shape = vi.fn(() => ({}));
    const lazy = channelSettings(shape);
    expect(shape).not.toHaveBeenCalled();
    expect(lazy.schema).toBe(lazy.schema);
    expect(shape).toHaveBeenCalledTimes(1);
    expect(spec('anthropic').schema).toBe(spec('anthropic').schema);
  });

  it('fill the documented defaults', () => {
    expect(spec('simulator').schema.parse({})).toMatchObject({ strictTranslation: false, failTasks: false });
    expect(spec('anthropic').schema.parse({})).toMatchObject({ cacheBreakpoints: true, outputFormatField: 'output_config', adaptiveThinking: false });
    expect(spec('openai-chat').schema.parse({})).toMatchObject({ maxTokensField: 'max_completion_tokens', streamUsage: true, systemRole: 'system', reasoningContent: false });
    expect(spec('gemini').schema.parse({})).toMatchObject({ apiVersion: 'v1beta' });
    expect(spec('wan').schema.parse({})).toMatchObject({ maxVideoBytes: 512 * 1024 * 1024 });
  });

  it('take numbers written as strings where the simulator always did', () => {
    expect(written('simulator', { latencyMs: '250', failStatus: 503 })).toEqual({ warnings: [] });
    expect(spec('simulator').schema.parse({ latencyMs: '250' }).latencyMs).toBe(250);
  });

  it.each([
    ['simulator', { latencyMs: -1 }, 'settings.latencyMs', 'must be a number >= 0'],
    ['simulator', { failStatus: 200 }, 'settings.failStatus', 'must be an HTTP error status (400-599)'],
    ['simulator', { failStatus: 500.5 }, 'settings.failStatus', 'must be an HTTP error status (400-599)'],
    ['simulator', { taskSeconds: 4000 }, 'settings.taskSeconds', 'must be a number from 0 to 3600'],
    ['simulator', { failTasks: 'yes' }, 'settings.failTasks', 'must be true, false or a list of models or actions'],
    ['simulator', { accounts: [{ modes: ['FAST'] }] }, 'settings.accounts.0.instanceId', 'needs an instanceId'],
    ['simulator', { accounts: [{ instanceId: 'a', modes: ['SLOW'] }] }, 'settings.accounts.0.modes.0', 'modes must list RELAX, FAST or TURBO'],
    ['anthropic', { betas: { allow: ['x'], keep: [] } }, 'settings.betas', expect.stringContaining('keep')],
    ['anthropic', { cacheBreakpoints: 'no' }, 'settings.cacheBreakpoints', 'must be true or false'],
    ['openai-chat', { systemRole: 'user' }, 'settings.systemRole', expect.stringContaining('developer')],
    ['ig-proxy', { secretHeader: 'bad header' }, 'settings.secretHeader', 'must be a string matching /^[A-Za-z0-9-]+$/'],
    ['ig-proxy', { maxImageBytes: 0 }, 'settings.maxImageBytes', 'must be a positive integer'],
    ['openai-videos', { variants: 'no' }, 'settings.variants', 'must be true or false'],
    ['wan', { taskPath: '/tasks/all' }, 'settings.taskPath', 'must contain {id}'],
    ['wan', { submitPath: 'relative' }, 'settings.submitPath', 'must be a path such as /api/v1/services/aigc/video-generation/video-synthesis'],
    ['gemini', { listedModels: ['gemini-*'] }, 'settings.listedModels.0', 'must be a list of exact model names (the names /v1/models shows for pattern entries)'],
  ])('%s refuses %j naming %s', (type, settings, field, message) => {
    expect(written(type, settings).problem).toEqual({ field, message });
  });

  it('refuse an unknown key with the closest known name, or the known names when none is close', () => {
    expect(written('openai-chat', { promptCachekey: false }).problem).toEqual({
      field: 'settings.promptCachekey',
      message: 'unknown setting `promptCachekey` for an openai-chat channel; did you mean `promptCacheKey`?',
    });
    expect(written('gemini', { zzzzzzzzzz: 1 }).problem?.message).toBe('unknown setting `zzzzzzzzzz` for a gemini channel (known: costs, listedModels, strictTranslation, apiVersion)');
  });

  it('let a stored channel keep an unknown key or a bad value of a leniently read key, as a warning', () => {
    expect(stored('anthropic', { defaultMaxToken: 100, adaptiveThinking: 'on' })).toEqual({
      warnings: ['unknown setting `defaultMaxToken` for an anthropic channel; did you mean `defaultMaxTokens`?; ignored', 'settings.adaptiveThinking must be true or false; ignored'],
    });
    // A key whose value was always refused still makes the stored channel unusable.
    expect(stored('anthropic', { cacheBreakpoints: 'no' }).problem).toEqual({ field: 'settings.cacheBreakpoints', message: 'must be true or false' });
  });

  it('show as a JSON Schema: an object of documented keys and nothing else', () => {
    for (const { type, settings } of CHANNEL_TYPES) {
      const json = settingsJsonSchema(settings) as { type: string; additionalProperties: boolean; properties: Record<string, { description?: string }> };
      expect(json.type, type).toBe('object');
      expect(json.additionalProperties, type).toBe(false);
      for (const [key, property] of Object.entries(json.properties)) expect(property.description, `${type}.${key}`).toBeTruthy();
    }
    const simulator = settingsJsonSchema(spec('simulator')) as { properties: Record<string, unknown> };
    expect(simulator.properties.latencyMs).toMatchObject({ type: 'number', minimum: 0, default: 0 });
    expect((settingsJsonSchema(spec('openai-chat')) as { properties: Record<string, unknown> }).properties.systemRole).toMatchObject({
      type: 'string',
      enum: ['system', 'developer'],
      default: 'system',
    });
  });
});
