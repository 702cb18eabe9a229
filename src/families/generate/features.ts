/**
 * Request options only some upstreams can honour, as `ChatRequest.features`
 * keys. Values are the client's own settings, in this dialect's form, so an
 * upstream speaking it can forward them. Options that change nothing (one
 * candidate, TEXT output, safety thresholds that block nothing) are left out.
 */
import type { GenerateRequest } from '../../dialects/generate/schema.js';
import { permissiveThresholds } from '../../dialects/generate/schema-enums.js';

import type { GenerateFeature } from '../../dialects/generate/features.js';

export { generateFeatureKeys, type GenerateFeature } from '../../dialects/generate/features.js';

export function requestFeatures(req: GenerateRequest): Partial<Record<GenerateFeature, unknown>> | undefined {
  const features: Partial<Record<GenerateFeature, unknown>> = {};
  const config = req.generationConfig;
  if (config) {
    if (config.candidateCount !== undefined && config.candidateCount > 1) features.candidateCount = config.candidateCount;
    if (config.responseLogprobs === true) features.logprobs = { responseLogprobs: true, logprobs: config.logprobs };
    if (config.responseModalities?.some((modality) => modality !== 'TEXT' && modality !== 'MODALITY_UNSPECIFIED')) features.responseModalities = config.responseModalities;
    if (config.speechConfig !== undefined) features.speechConfig = config.speechConfig;
    if (config.mediaResolution !== undefined && config.mediaResolution !== 'MEDIA_RESOLUTION_UNSPECIFIED') features.mediaResolution = config.mediaResolution;
    if (config.enableEnhancedCivicAnswers === true) features.enableEnhancedCivicAnswers = true;
    if (config.imageConfig !== undefined) features.imageConfig = config.imageConfig;
    if (config.audioTimestamp === true) features.audioTimestamp = true;
  }
  for (const content of req.contents) {
    for (const part of content.parts) {
      if (part.videoMetadata !== undefined) features.videoMetadata = part.videoMetadata;
      if (part.mediaResolution !== undefined) features.mediaResolution ??= part.mediaResolution;
    }
  }
  if (req.cachedContent !== undefined) features.cachedContent = req.cachedContent;
  const blocking = req.safetySettings?.filter((setting) => !permissiveThresholds.has(setting.threshold));
  if (blocking?.length) features.safetySettings = req.safetySettings;
  if (req.serviceTier !== undefined) features.serviceTier = req.serviceTier;
  if (req.store !== undefined) features.store = req.store;
  if (req.continuationToken !== undefined) features.continuationToken = req.continuationToken;
  return Object.keys(features).length > 0 ? features : undefined;
}
