/** A string matching a simple regular expression, for a JSON Schema's `pattern`. */

export function compilePattern(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try the next flag set; a pattern no engine accepts is left unchecked
    }
  }
  return undefined;
}

/** Candidate characters for a class or escape, in the order a reader would expect. */
const CLASS_CANDIDATES = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', ...' -_.@:/+,;!?#$%&*=~^|<>()[]{}\'"`\\'];
const ESCAPE_SAMPLES: Record<string, string> = { d: '0', D: 'a', w: 'a', W: '-', s: ' ', S: 'a', n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', b: '', B: '' };

class UnsupportedPattern extends Error {}

/**
 * A string matching a simple regular expression: each quantifier repeats its
 * minimum (plus `stretch` for open-ended ones), each alternation takes its
 * first branch. Returns undefined for lookarounds and back-references.
 */
export function samplePattern(pattern: string, stretch: number): string | undefined {
  let i = 0;
  const fail = (): never => {
    throw new UnsupportedPattern(pattern);
  };
  const alternation = (): string => {
    const first = sequence();
    while (pattern[i] === '|') {
      i++;
      sequence();
    }
    return first;
  };
  const sequence = (): string => {
    let out = '';
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      const text = atom();
      out += text.repeat(quantifier());
    }
    return out;
  };
  const atom = (): string => {
    const c = pattern[i++];
    if (c === '^' || c === '$') return '';
    if (c === '.') return 'a';
    if (c === '[') return charClass(i - 1);
    if (c === '\\') return escape();
    if (c === '(') {
      if (pattern[i] === '?') {
        if (pattern[i + 1] === ':') i += 2;
        else if (pattern[i + 1] === '<' && pattern[i + 2] !== '=' && pattern[i + 2] !== '!') i = pattern.indexOf('>', i) + 1 || fail();
        else fail();
      }
      const inner = alternation();
      if (pattern[i++] !== ')') fail();
      return inner;
    }
    return c;
  };
  const escape = (): string => {
    const e = pattern[i++] ?? fail();
    if (e in ESCAPE_SAMPLES) return ESCAPE_SAMPLES[e];
    if (/[1-9k]/.test(e)) fail();
    if (e === 'u' || e === 'x') {
      const digits = e === 'u' ? 4 : 2;
      const hex = pattern.slice(i, i + digits);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) fail();
      i += digits;
      return String.fromCharCode(parseInt(hex, 16));
    }
    return e;
  };
  const charClass = (start: number): string => {
    let j = start + 1;
    if (pattern[j] === '^') j++;
    if (pattern[j] === ']') j++;
    while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
    if (j >= pattern.length) fail();
    i = j + 1;
    const matcher = compilePattern(`^${pattern.slice(start, j + 1)}$`) ?? fail();
    const found = CLASS_CANDIDATES.find((candidate) => matcher.test(candidate));
    if (found !== undefined) return found;
    const first = pattern[start + 1] === '^' ? undefined : pattern[start + 1];
    return first !== undefined && matcher.test(first) ? first : fail();
  };
  const quantifier = (): number => {
    const c = pattern[i];
    let count: number;
    if (c === '?') count = Math.min(1, stretch);
    else if (c === '*') count = stretch;
    else if (c === '+') count = 1 + stretch;
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (m === null) return 1;
      const low = Number(m[1]);
      const high = m[2] === undefined ? low : m[3] === '' ? Infinity : Number(m[3]);
      i += m[0].length - 1;
      count = Math.min(high, low + stretch);
    } else return 1;
    i++;
    if (pattern[i] === '?' || pattern[i] === '+') i++;
    return count;
  };
  try {
    const out = alternation();
    return i === pattern.length ? out : undefined;
  } catch (error) {
    if (error instanceof UnsupportedPattern) return undefined;
    throw error;
  }
}
