/**
 * Fields of a GenerateContent request that cannot change a translated
 * answer, as `ChatRequest.hints` keyed by the client's field name: billing
 * labels, settings of tools other providers do not run, function metadata
 * of the Live API, part metadata, and the provider-run tool parts left out
 * of the history (to-core-content.ts). Upstreams name them in their plan;
 * strict translation refuses them.
 */
import type { GenerateRequest } from '../../dialects/generate/schema.js';

export function requestHints(req: GenerateRequest, droppedParts: ReadonlySet<string>): Record<string, unknown> | undefined {
  const hints: Record<string, unknown> = {};
  if (req.labels !== undefined) hints.labels = req.labels;
  if (req.toolConfig?.retrievalConfig !== undefined) hints['toolConfig.retrievalConfig'] = req.toolConfig.retrievalConfig;
  if (req.toolConfig?.includeServerSideToolInvocations !== undefined) hints['toolConfig.includeServerSideToolInvocations'] = req.toolConfig.includeServerSideToolInvocations;
  for (const tool of req.tools ?? []) {
    for (const declaration of tool.functionDeclarations ?? []) {
      if (declaration.behavior !== undefined) hints['functionDeclarations.behavior'] ??= declaration.behavior;
      if (declaration.response !== undefined || declaration.responseJsonSchema !== undefined) hints['functionDeclarations.response'] ??= true;
    }
  }
  for (const content of req.contents) {
    for (const part of content.parts) {
      if (part.partMetadata !== undefined) hints.partMetadata ??= part.partMetadata;
      const response = part.functionResponse;
      if (response?.scheduling !== undefined || response?.willContinue !== undefined) hints['functionResponse.scheduling'] ??= true;
    }
  }
  for (const field of droppedParts) hints[field] = 'left out of the history: the text after it carries its effect';
  return Object.keys(hints).length > 0 ? hints : undefined;
}
