/**
 * Whether a base URL is OpenAI's own API: the OpenAI types' endpoints that
 * only OpenAI is known to have (moderations) are on by default there.
 */
const parsed = new Map<string, boolean>();

export function isOpenAiBaseUrl(baseUrl: string): boolean {
  let known = parsed.get(baseUrl);
  if (known === undefined) {
    known = URL.canParse(baseUrl) && new URL(baseUrl).hostname === 'api.openai.com';
    // A channel's base URL rarely changes; the bound keeps a churn of them from growing the map.
    if (parsed.size > 256) parsed.clear();
    parsed.set(baseUrl, known);
  }
  return known;
}
