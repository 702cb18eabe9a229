/**
 * On the native (pass-through) path the client's bytes go as they are, except
 * for thought signatures this gateway sealed on a translated turn (another
 * provider's state, see core/reasoning-state.ts), which Gemini would refuse:
 * a function call keeps its place with the documented skip sentinel instead
 * (Gemini 3 refuses a replayed call without a signature), other parts lose the
 * signature, and a part that was only a signature is left out. Without any,
 * the bytes are untouched.
 */
import { isSealedReasoning } from '../../core/reasoning-state.js';
import type { PassThroughRequest } from '../../upstreams/types.js';

type Part = Record<string, unknown>;
type Content = { parts?: unknown };

const SKIP_SIGNATURE = 'skip_thought_signature_validator';
const sealedPart = (part: Part) => isSealedReasoning(part?.thoughtSignature);

export function withoutSealedSignatures(body: Record<string, unknown>, stream: boolean, method?: string): PassThroughRequest | undefined {
  const contents = body.contents;
  if (!Array.isArray(contents)) return undefined;
  const carries = (content: Content) => Array.isArray(content?.parts) && (content.parts as Part[]).some(sealedPart);
  if (!contents.some(carries)) return undefined;
  const cleaned = contents.map((content: Content) => (carries(content) ? { ...content, parts: cleanParts(content.parts as Part[]) } : content));
  const rewritten = { ...body, contents: cleaned };
  return { rawBody: Buffer.from(JSON.stringify(rewritten)), body: rewritten, stream, method };
}

function cleanParts(parts: Part[]): Part[] {
  return parts.flatMap((part) => {
    if (!sealedPart(part)) return [part];
    const { thoughtSignature: _sealed, ...rest } = part;
    if (part.functionCall) return [{ ...rest, thoughtSignature: SKIP_SIGNATURE }];
    const onlySignature = Object.keys(rest).every((key) => key === 'text' && rest.text === '');
    return onlySignature ? [] : [rest];
  });
}
