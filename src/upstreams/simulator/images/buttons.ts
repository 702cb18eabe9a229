/**
 * The buttons a real image-task service puts under each result, with the
 * gateway's `IG::` customIds: a grid gets U1-U4, reroll and V1-V4; an
 * upscale gets the upscale, vary, zoom and pan set; describe and shorten get
 * buttons that imagine one of their suggestions.
 */
import type { BotType, StoredButton } from '../../../tasks/image-contract.js';

const button = (customId: string, label: string, emoji = ''): StoredButton => ({ customId, emoji, label, style: 2, type: 2 });

export function gridButtons(hash: string): StoredButton[] {
  const indexes = [1, 2, 3, 4];
  return [
    ...indexes.map((i) => button(`IG::JOB::upsample::${i}::${hash}`, `U${i}`)),
    button(`IG::JOB::reroll::0::${hash}::SOLO`, '', '🔄'),
    ...indexes.map((i) => button(`IG::JOB::variation::${i}::${hash}`, `V${i}`)),
  ];
}

/** After an upscale. `fromUpscale`: the image is itself an upscale of an upscale (no further upscale buttons). */
export function upscaleButtons(hash: string, botType: BotType, fromUpscale = false): StoredButton[] {
  const version = botType === 'NIJI_GEN' ? 'v6' : 'v6r1';
  return [
    ...(fromUpscale
      ? []
      : [
          button(`IG::JOB::upsample_${version}_2x_subtle::1::${hash}::SOLO`, 'Upscale (Subtle)', 'upscale_1'),
          button(`IG::JOB::upsample_${version}_2x_creative::1::${hash}::SOLO`, 'Upscale (Creative)', 'upscale_1'),
        ]),
    button(`IG::JOB::low_variation::1::${hash}::SOLO`, 'Vary (Subtle)', '🪄'),
    button(`IG::JOB::high_variation::1::${hash}::SOLO`, 'Vary (Strong)', '🪄'),
    button(`IG::Inpaint::1::${hash}::SOLO`, 'Vary (Region)', '🖌️'),
    button(`IG::Outpaint::50::1::${hash}::SOLO`, 'Zoom Out 2x', '🔍'),
    button(`IG::Outpaint::75::1::${hash}::SOLO`, 'Zoom Out 1.5x', '🔍'),
    button(`IG::CustomZoom::${hash}`, 'Custom Zoom', '🔍'),
    button(`IG::JOB::pan_left::1::${hash}::SOLO`, '', '⬅️'),
    button(`IG::JOB::pan_right::1::${hash}::SOLO`, '', '➡️'),
    button(`IG::JOB::pan_up::1::${hash}::SOLO`, '', '⬆️'),
    button(`IG::JOB::pan_down::1::${hash}::SOLO`, '', '⬇️'),
  ];
}

const NUMBERS = ['1️⃣', '2️⃣', '3️⃣', '4️⃣', '5️⃣'];

export function describeButtons(): StoredButton[] {
  return [...[1, 2, 3, 4].map((i) => button(`IG::Job::PicReader::${i}`, '', NUMBERS[i - 1])), button('IG::Picread::Retry', '', '🔄')];
}

export function shortenButtons(count: number): StoredButton[] {
  return Array.from({ length: count }, (_, i) => button(`IG::Job::PromptAnalyzer::${i + 1}`, '', NUMBERS[i]));
}

export const numberEmoji = (index: number): string => NUMBERS[index] ?? `${index + 1}.`;
