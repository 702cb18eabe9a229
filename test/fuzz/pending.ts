/**
 * Generators switched off because what they find is being fixed in another
 * change. Each entry names the generator, the fix it waits for, and a request
 * that reproduces the finding. Empty this list as those fixes land: the
 * generators then run with every other one.
 */
import type { Family, RouteEntry } from './catalogue.js';
import type { GeneratorName } from './generators.js';

export interface PendingFix {
  generator: GeneratorName;
  /** Only on these families' routes (all when absent). */
  families?: Family[];
  /** The fix this waits for. */
  waitsFor: string;
  /** One request that shows the finding, and what it answers today. */
  reproduce: string;
}

const FRAMEWORK = 'framework-level errors in the family\'s own shape (src/server/app.ts, src/server/family-errors.ts)';

export const pendingFix: PendingFix[] = [
  {
    generator: 'route.unknown',
    waitsFor: FRAMEWORK,
    reproduce: 'POST /v1/messages/count_tokens/nope → 404 {"error":{"type":"not_found",…}} (root shape, not Messages); also /v1/responses/{id}/x, /IG/TASK/…, /V1/VIDEOS/…',
  },
  {
    generator: 'method.wrong',
    waitsFor: FRAMEWORK,
    reproduce: 'GET /v1/messages/count_tokens, PUT /v1/responses/{id}, GET /v1beta/models/m:generateContent → 404 in the root shape, not the family\'s',
  },
  {
    generator: 'path.malformed',
    waitsFor: FRAMEWORK,
    reproduce:
      'GET /v1/responses/%ff → 400 {"error":"Bad Request","code":"FST_ERR_BAD_URL",…}; GET /admin/keys/caf\\xe9 (a raw latin-1 byte) → 400 {"error":"Bad Request","message":"Client Error","statusCode":400}: Fastify\'s shapes',
  },
  {
    generator: 'path.too-long',
    waitsFor: FRAMEWORK,
    reproduce: 'GET /v1/videos/<101 × a> → 400 {"error":"Bad Request","code":"FST_ERR_MAX_PARAM_LENGTH",…} (Fastify\'s shape; ids up to 128 characters are documented as well-formed)',
  },
  {
    generator: 'header.oversized',
    waitsFor: FRAMEWORK,
    reproduce: 'any route with a 20 KB header (x-fuzz-padding: h × 20000) → 431 {"error":"Request Header Fields Too Large",…}, and the connection is closed',
  },
  {
    generator: 'media.bad',
    waitsFor: 'media checks: base64, data URLs and magic bytes in Messages, Responses and content generation',
    reproduce:
      'POST /v1/messages with an image block source.data "<png base64>====" or "data:image/png;base64,\\ud800" → 200; POST /v1/responses/input_tokens with input_file.file_data "data:image/png;base64,AAAAA" → 200; POST /v1/models/m:countTokens with inlineData {mimeType: "image/png", data: base64("not an image at all")} → 200',
  },
];

/** The generators switched off on one route. */
export function pendingFor(route: RouteEntry): ReadonlySet<GeneratorName> {
  return new Set(pendingFix.filter((entry) => !entry.families || entry.families.includes(route.family)).map((entry) => entry.generator));
}
