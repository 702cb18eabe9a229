/** How numbers, money and times read in the console. */

export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function formatMoney(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return '—';
  if (usd !== 0 && Math.abs(usd) < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(2)}`;
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (Math.abs(n) >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (Math.abs(n) >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n * 100) / 100);
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** `a, b, c` for a list; `any` for null (no restriction). */
export function formatList(list: string[] | null | undefined, none = 'any'): string {
  return list && list.length > 0 ? list.join(', ') : none;
}

/** Comma- or newline-separated text as a list; empty text is null. */
export function parseList(text: string): string[] | null {
  const items = text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? items : null;
}

/**
 * Upstream keys: one per line or comma-separated, except that a JSON key (a
 * service-account key file pasted whole) is one key however many lines and
 * commas it holds.
 */
export function parseKeys(text: string): string[] | null {
  const keys: string[] = [];
  let rest = text.trim();
  while (rest !== '') {
    const end = rest.startsWith('{') ? jsonObjectEnd(rest) : -1;
    const key = end > 0 ? rest.slice(0, end) : (/^[^,\n]*/.exec(rest)?.[0] ?? rest);
    if (key.trim() !== '') keys.push(key.trim());
    rest = rest.slice(key.length).replace(/^[\s,]+/, '');
  }
  return keys.length > 0 ? keys : null;
}

/** Where the JSON object at the start of `text` ends (past its closing brace), or -1 if it does not. */
function jsonObjectEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return at + 1;
  }
  return -1;
}

/** A number field: empty is null. */
export function parseNumber(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

/** `<input type=datetime-local>` value for epoch ms, and back. */
export function toLocalInput(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  const date = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return date.toISOString().slice(0, 16);
}

export function fromLocalInput(text: string): number | null {
  return text ? new Date(text).getTime() : null;
}
