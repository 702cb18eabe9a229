/**
 * Button customIds: `IG::JOB::<operation>::<index>::<hash>[::SOLO]` and the
 * few other shapes real services use (Outpaint, CustomZoom, Inpaint, the
 * describe and shorten follow-ups). Clients of the vendor API send an `MJ::`
 * prefix; it is read as `IG::`. Parsing tells which task a button makes, its
 * action, and whether it waits for a modal submission.
 */
import type { ImageAction, ImageOperation, ModalKind } from '../../tasks/image-contract.js';

/** The gateway's form of a customId (vendor prefix replaced). */
export function normaliseCustomId(customId: string): string {
  return customId.replace(/^MJ::/, 'IG::');
}

const HASH = '[0-9A-Za-z-]{6,64}';
const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => ImageOperation]> = [
  [new RegExp(`^IG::JOB::upsample::([1-4])::${HASH}$`), (m) => ({ kind: 'upsample', index: Number(m[1]) })],
  [new RegExp(`^IG::JOB::upsample_v\\d+(?:r\\d+)?_(?:2x|4x)_(?:subtle|creative)::1::${HASH}::SOLO$`), () => ({ kind: 'upsample_hd', index: 1 })],
  [new RegExp(`^IG::JOB::upsample_v5_(?:2x|4x)::1::${HASH}::SOLO$`), () => ({ kind: 'upsample_hd', index: 1 })],
  [new RegExp(`^IG::JOB::variation::([1-4])::${HASH}$`), (m) => ({ kind: 'variation', index: Number(m[1]) })],
  [new RegExp(`^IG::JOB::low_variation::1::${HASH}::SOLO$`), () => ({ kind: 'low_variation', index: 1 })],
  [new RegExp(`^IG::JOB::high_variation::1::${HASH}::SOLO$`), () => ({ kind: 'high_variation', index: 1 })],
  [new RegExp(`^IG::JOB::reroll::0::${HASH}::SOLO$`), () => ({ kind: 'reroll', index: 0 })],
  [new RegExp(`^IG::JOB::pan_(left|right|up|down)::1::${HASH}::SOLO$`), (m) => ({ kind: 'pan', index: 1, direction: m[1] as ImageOperation['direction'] })],
  [new RegExp(`^IG::Outpaint::(50|75)::1::${HASH}::SOLO$`), (m) => ({ kind: 'outpaint', index: 1, zoom: m[1] === '50' ? 2 : 1.5 })],
  [new RegExp(`^IG::CustomZoom::${HASH}$`), () => ({ kind: 'custom_zoom', index: 1 })],
  [new RegExp(`^IG::Inpaint::1::${HASH}::SOLO$`), () => ({ kind: 'inpaint', index: 1 })],
  [/^IG::Job::PicReader::([1-4])$/, (m) => ({ kind: 'pic_reader', index: Number(m[1]) })],
  [/^IG::Picread::Retry$/, () => ({ kind: 'picread_retry', index: 0 })],
  [/^IG::Job::PromptAnalyzer::([1-5])$/, (m) => ({ kind: 'prompt_analyzer', index: Number(m[1]) })],
];

/** The operation a customId asks for, or undefined when it has none of the known shapes. */
export function parseCustomId(customId: string): ImageOperation | undefined {
  const normal = normaliseCustomId(customId);
  for (const [pattern, build] of PATTERNS) {
    const match = pattern.exec(normal);
    if (match) return build(match);
  }
  return undefined;
}

/** The action of the task an operation creates. A reroll repeats its parent's action (an upscale's reroll imagines). */
export function actionOf(operation: ImageOperation, parentAction: ImageAction): ImageAction {
  switch (operation.kind) {
    case 'upsample':
    case 'upsample_hd':
      return 'UPSCALE';
    case 'variation':
    case 'low_variation':
    case 'high_variation':
    case 'inpaint':
      return 'VARIATION';
    case 'pan':
      return 'PAN';
    case 'outpaint':
    case 'custom_zoom':
      return 'ZOOM';
    case 'pic_reader':
    case 'prompt_analyzer':
      return 'IMAGINE';
    case 'picread_retry':
      return 'DESCRIBE';
    case 'reroll':
      return parentAction === 'UPSCALE' ? 'IMAGINE' : parentAction;
  }
}

/** Operations that re-run their parent's prompt, and so become modal on an account in remix mode. */
const REMIXABLE = new Set(['variation', 'low_variation', 'high_variation', 'pan', 'reroll']);

/** Whether the new task waits for `/ig/submit/modal`, and why. */
export function modalOf(operation: ImageOperation, account: { remix?: boolean; remixAutoConsidered?: boolean } | null): ModalKind | undefined {
  if (operation.kind === 'custom_zoom') return 'custom_zoom';
  if (operation.kind === 'inpaint') return 'inpaint';
  if (operation.kind === 'pic_reader') return 'describe';
  if (operation.kind === 'prompt_analyzer') return 'shorten';
  if (REMIXABLE.has(operation.kind) && account?.remix === true && account.remixAutoConsidered !== true) return 'remix';
  return undefined;
}
