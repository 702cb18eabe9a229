/**
 * The console channel form's settings draft: a checkbox left alone follows
 * the default the channel will get, which a preset may change; only values
 * that differ from that default (or were stored) are sent.
 */
import { describe, expect, it } from 'vitest';
import { draftOf, effectiveDefaults, settingsOf } from '../../console/src/views/settings-draft.js';
import type { ChannelType, SettingSchema } from '../../console/src/types.js';

const properties: Record<string, SettingSchema> = {
  preset: { type: 'string', enum: ['deepseek', 'mistral'] },
  reasoningContent: { type: 'boolean', default: false },
  streamUsage: { type: 'boolean', default: true },
  maxTokensField: { type: 'string', enum: ['max_tokens', 'max_completion_tokens'], default: 'max_completion_tokens' },
};
const implied: ChannelType['impliedDefaults'] = {
  key: 'preset',
  byValue: { deepseek: { reasoningContent: true, maxTokensField: 'max_tokens' }, mistral: { streamUsage: false } },
};

describe('effectiveDefaults', () => {
  it("is the schema's defaults without a preset, and the preset's where one is chosen", () => {
    const none = effectiveDefaults(properties, implied, draftOf(properties, {}));
    expect(none).toMatchObject({ values: { reasoningContent: false, streamUsage: true, maxTokensField: 'max_completion_tokens' }, implied: {} });
    const deepseek = effectiveDefaults(properties, implied, { ...draftOf(properties, {}), preset: 'deepseek' });
    expect(deepseek).toEqual({
      values: { preset: undefined, reasoningContent: true, streamUsage: true, maxTokensField: 'max_tokens' },
      implied: { reasoningContent: true, maxTokensField: 'max_tokens' },
      by: 'preset deepseek',
    });
  });

  it('ignores a value the type names no defaults for, and a type without implied defaults', () => {
    expect(effectiveDefaults(properties, implied, { preset: 'toString' }).implied).toEqual({});
    expect(effectiveDefaults(properties, undefined, { preset: 'deepseek' }).values.reasoningContent).toBe(false);
  });
});

describe('settingsOf', () => {
  it('sends no checkbox left alone, so the preset fills it', () => {
    const draft = { ...draftOf(properties, {}), preset: 'deepseek' };
    expect(draftOf(properties, {})).not.toHaveProperty('reasoningContent');
    expect(settingsOf(properties, draft, {}, effectiveDefaults(properties, implied, draft))).toEqual({ preset: 'deepseek' });
  });

  it("sends a checkbox that differs from the preset's default, and none that matches it", () => {
    const off = { ...draftOf(properties, {}), preset: 'deepseek', reasoningContent: false };
    expect(settingsOf(properties, off, {}, effectiveDefaults(properties, implied, off))).toEqual({ preset: 'deepseek', reasoningContent: false });
    const on = { ...draftOf(properties, {}), preset: 'deepseek', reasoningContent: true };
    expect(settingsOf(properties, on, {}, effectiveDefaults(properties, implied, on))).toEqual({ preset: 'deepseek' });
  });

  it('keeps a stored checkbox even when it equals the default', () => {
    const stored = { reasoningContent: false };
    const draft = draftOf(properties, stored);
    expect(settingsOf(properties, draft, stored, effectiveDefaults(properties, implied, draft))).toEqual({ reasoningContent: false });
  });
});
