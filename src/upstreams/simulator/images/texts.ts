/**
 * The simulator's words: prompt flags it honours (`--ar`, `--seed`), the
 * prompt as the service would echo it, four descriptions of an image (from
 * its digest) and five shortened prompts. All deterministic.
 */
import type { BotType } from '../../../tasks/image-contract.js';
import { hashNumber } from '../hash.js';
import { numberEmoji } from './buttons.js';

/** `--ar 3:2` or `--aspect 3:2`; ratios are clamped to at most 4:1 either way. */
export function aspectOf(prompt: string): [number, number] | undefined {
  const match = /--(?:ar|aspect)\s+(\d{1,3})\s*:\s*(\d{1,3})\b/i.exec(prompt);
  if (!match) return undefined;
  const w = Number(match[1]);
  const h = Number(match[2]);
  if (w === 0 || h === 0) return undefined;
  return [Math.min(w, h * 4), Math.min(h, w * 4)];
}

/** `--seed N` (0 to 4294967295). */
export function seedOf(prompt: string): number | undefined {
  const match = /--seed\s+(\d{1,10})\b/i.exec(prompt);
  if (!match) return undefined;
  const seed = Number(match[1]);
  return seed <= 0xffffffff ? seed : undefined;
}

/** The prompt as the service echoes it: with a version flag when it has none. */
export function finalPromptOf(prompt: string, botType: BotType): string {
  const trimmed = prompt.trim();
  if (/--(v|version|niji)\b/i.test(trimmed)) return trimmed;
  return `${trimmed} ${botType === 'NIJI_GEN' ? '--niji 6' : '--v 6.1'}`.trim();
}

const SUBJECTS = ['a lighthouse', 'a red fox', 'an old tram', 'a glass teapot', 'a mountain lake', 'a paper kite', 'a street market', 'a sleeping cat'];
const PLACES = ['at dawn', 'in heavy rain', 'under neon lights', 'in a quiet garden', 'on a snowy ridge', 'by the sea', 'in a busy city', 'in soft studio light'];
const STYLES = ['watercolor', 'oil painting', '35mm photograph', 'isometric illustration', 'charcoal sketch', 'flat vector art', 'cinematic still', 'ukiyo-e print'];
const ASPECTS = ['1:1', '4:3', '3:2', '16:9'];

/** Four numbered descriptions of an image, drawn from its digest. */
export function describeImage(digest: string): string[] {
  return [0, 1, 2, 3].map((i) => {
    const n = hashNumber(`${digest}|describe|${i}`);
    const subject = SUBJECTS[n % SUBJECTS.length];
    const place = PLACES[(n >>> 8) % PLACES.length];
    const style = STYLES[(n >>> 16) % STYLES.length];
    return `${subject} ${place}, ${style} --ar ${ASPECTS[(n >>> 24) % ASPECTS.length]}`;
  });
}

/** Five ever shorter versions of a prompt: its flags are kept, its words thinned. */
export function shortenPrompt(prompt: string): string[] {
  const flagAt = prompt.search(/\s--\w/);
  const words = (flagAt === -1 ? prompt : prompt.slice(0, flagAt)).split(/[\s,]+/).filter(Boolean);
  const flags = flagAt === -1 ? '' : prompt.slice(flagAt).trim();
  return [1, 0.8, 0.6, 0.45, 0.3].map((share) => {
    const kept = words.slice(0, Math.max(1, Math.ceil(words.length * share)));
    return [kept.join(' '), flags].filter(Boolean).join(' ');
  });
}

/** `1️⃣ first\n\n2️⃣ second…`, as the service lists suggestions. */
export function numbered(lines: string[]): string {
  return lines.map((line, i) => `${numberEmoji(i)} ${line}`).join('\n\n');
}
