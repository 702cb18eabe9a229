/**
 * The feature keys of the content-generation dialect: options the family puts
 * in `ChatRequest.features` and that only the native (gemini) upstream can
 * honour. Kept in the core so the family and the upstream share one list.
 */
export const generateFeatureKeys = [
  'candidateCount',
  'logprobs',
  'responseModalities',
  'speechConfig',
  'mediaResolution',
  'cachedContent',
  'safetySettings',
  'enableEnhancedCivicAnswers',
  'imageConfig',
  'audioTimestamp',
  'videoMetadata',
  'serviceTier',
  'store',
  'continuationToken',
] as const;

export type GenerateFeature = (typeof generateFeatureKeys)[number];

/**
 * The tools a content-generation service runs itself, by their field name in
 * a `Tool`: the family validates them, the gemini upstream forwards them.
 */
export const generateBuiltinToolKinds = ['codeExecution', 'googleSearch', 'googleSearchRetrieval', 'enterpriseWebSearch', 'urlContext', 'googleMaps', 'fileSearch', 'computerUse'] as const;
