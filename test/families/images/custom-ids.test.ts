/** customIds: every shape the buttons use, the vendor prefix, actions and modals. */
import { describe, expect, it } from 'vitest';
import { actionOf, modalOf, normaliseCustomId, parseCustomId } from '../../../src/families/images/custom-ids.js';
import { gridButtons, upscaleButtons, describeButtons, shortenButtons } from '../../../src/upstreams/simulator/images/buttons.js';

const HASH = '3f2a9c1e-0b7d-4e55-9a10-6c2d8e4f1a23';

describe('customIds', () => {
  it.each([
    [`IG::JOB::upsample::3::${HASH}`, { kind: 'upsample', index: 3 }, 'UPSCALE', undefined],
    [`IG::JOB::upsample_v6r1_2x_subtle::1::${HASH}::SOLO`, { kind: 'upsample_hd', index: 1 }, 'UPSCALE', undefined],
    [`IG::JOB::upsample_v6_2x_creative::1::${HASH}::SOLO`, { kind: 'upsample_hd', index: 1 }, 'UPSCALE', undefined],
    [`IG::JOB::upsample_v5_4x::1::${HASH}::SOLO`, { kind: 'upsample_hd', index: 1 }, 'UPSCALE', undefined],
    [`IG::JOB::variation::2::${HASH}`, { kind: 'variation', index: 2 }, 'VARIATION', undefined],
    [`IG::JOB::low_variation::1::${HASH}::SOLO`, { kind: 'low_variation', index: 1 }, 'VARIATION', undefined],
    [`IG::JOB::high_variation::1::${HASH}::SOLO`, { kind: 'high_variation', index: 1 }, 'VARIATION', undefined],
    [`IG::JOB::reroll::0::${HASH}::SOLO`, { kind: 'reroll', index: 0 }, 'BLEND', undefined],
    [`IG::JOB::pan_up::1::${HASH}::SOLO`, { kind: 'pan', index: 1, direction: 'up' }, 'PAN', undefined],
    [`IG::Outpaint::50::1::${HASH}::SOLO`, { kind: 'outpaint', index: 1, zoom: 2 }, 'ZOOM', undefined],
    [`IG::Outpaint::75::1::${HASH}::SOLO`, { kind: 'outpaint', index: 1, zoom: 1.5 }, 'ZOOM', undefined],
    [`IG::CustomZoom::${HASH}`, { kind: 'custom_zoom', index: 1 }, 'ZOOM', 'custom_zoom'],
    [`IG::Inpaint::1::${HASH}::SOLO`, { kind: 'inpaint', index: 1 }, 'VARIATION', 'inpaint'],
    ['IG::Job::PicReader::4', { kind: 'pic_reader', index: 4 }, 'IMAGINE', 'describe'],
    ['IG::Picread::Retry', { kind: 'picread_retry', index: 0 }, 'DESCRIBE', undefined],
    ['IG::Job::PromptAnalyzer::5', { kind: 'prompt_analyzer', index: 5 }, 'IMAGINE', 'shorten'],
  ])('reads %s', (customId, operation, action, modal) => {
    const parsed = parseCustomId(customId);
    expect(parsed).toEqual(operation);
    expect(actionOf(parsed!, 'BLEND')).toBe(action);
    expect(modalOf(parsed!, null)).toBe(modal);
  });

  it('reads the vendor prefix as the gateway’s', () => {
    expect(normaliseCustomId(`MJ::JOB::upsample::1::${HASH}`)).toBe(`IG::JOB::upsample::1::${HASH}`);
    expect(parseCustomId(`MJ::CustomZoom::${HASH}`)).toEqual({ kind: 'custom_zoom', index: 1 });
  });

  it.each([
    '',
    'IG::',
    'IG::JOB::upsample::5::abcdef01',
    'IG::JOB::upsample::1',
    'IG::JOB::unknown::1::abcdef01',
    'XX::JOB::upsample::1::abcdef01',
    'IG::Job::PicReader::9',
    `IG::JOB::upsample::1::${HASH}::extra`,
  ])('refuses %j', (customId) => {
    expect(parseCustomId(customId)).toBeUndefined();
  });

  it('rerolls an upscale as an imagine', () => {
    expect(actionOf({ kind: 'reroll', index: 0 }, 'UPSCALE')).toBe('IMAGINE');
  });

  it('makes re-running buttons modal only on a remix account without auto-submit', () => {
    const variation = { kind: 'variation' as const, index: 1 };
    expect(modalOf(variation, { remix: true })).toBe('remix');
    expect(modalOf(variation, { remix: true, remixAutoConsidered: true })).toBeUndefined();
    expect(modalOf({ kind: 'upsample', index: 1 }, { remix: true })).toBeUndefined();
  });

  it('parses every button the simulator emits', () => {
    const all = [...gridButtons(HASH), ...upscaleButtons(HASH, 'MID_GEN'), ...upscaleButtons(HASH, 'NIJI_GEN'), ...describeButtons(), ...shortenButtons(5)];
    for (const button of all) expect(parseCustomId(button.customId), button.customId).toBeDefined();
  });
});
