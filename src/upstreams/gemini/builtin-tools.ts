/** The tools a Gemini upstream runs itself, by their field name in a Gemini `Tool`. */
export const geminiBuiltinTools: ReadonlySet<string> = new Set([
  'codeExecution',
  'googleSearch',
  'googleSearchRetrieval',
  'enterpriseWebSearch',
  'urlContext',
  'googleMaps',
  'fileSearch',
  'computerUse',
]);
