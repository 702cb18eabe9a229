/**
 * Credentials as each family's clients send them, and the odd ways a client
 * can get them wrong: missing, empty, a scheme without a token, a huge or
 * non-ASCII token, two keys at once, the key in another family's header.
 */
import type { AuthStyle } from './catalogue.js';

export const AUTH_VARIANTS = [
  'missing',
  'empty',
  'scheme-alone',
  'scheme-space',
  'basic',
  'extra-word',
  'very-long',
  'non-ascii',
  'repeated-header',
  'two-headers',
  'wrong-family-header',
  'wrong-key',
  'other-role-key',
  'lowercase-scheme',
  'tab',
  'no-version',
  'key-in-query',
] as const;
export type AuthVariant = (typeof AUTH_VARIANTS)[number];

interface Keys {
  clientKey: string;
  adminKey: string;
}

/** The header a style's credential goes in, and how the key is written there. */
function credential(style: AuthStyle, key: string): [string, string] {
  if (style === 'messages') return ['x-api-key', key];
  if (style === 'google') return ['x-goog-api-key', key];
  return ['authorization', `Bearer ${key}`];
}

const OTHER_FAMILY_HEADER: Record<AuthStyle, string> = {
  messages: 'x-goog-api-key',
  bearer: 'x-api-key',
  google: 'x-api-key',
  admin: 'x-api-key',
  none: 'authorization',
};

export function authHeaders(style: AuthStyle, variant: AuthVariant | undefined, keys: Keys): Array<[string, string]> {
  const key = style === 'admin' ? keys.adminKey : keys.clientKey;
  const extra: Array<[string, string]> = style === 'messages' && variant !== 'no-version' ? [['anthropic-version', '2023-06-01']] : [];
  if (style === 'none' && variant === undefined) return [];
  const [name, value] = credential(style === 'none' ? 'bearer' : style, key);
  const scheme = name === 'authorization' ? 'Bearer' : '';
  const token = (text: string): Array<[string, string]> => [[name, scheme ? `${scheme} ${text}` : text]];
  const headers = ((): Array<[string, string]> => {
    switch (variant) {
      case undefined:
      case 'no-version':
      case 'key-in-query':
        return variant === 'key-in-query' ? [] : [[name, value]];
      case 'missing':
        return [];
      case 'empty':
        return [[name, '']];
      case 'scheme-alone':
        return [['authorization', 'Bearer']];
      case 'scheme-space':
        return [['authorization', 'Bearer  ']];
      case 'basic':
        return [['authorization', `Basic ${Buffer.from(`user:${key}`).toString('base64')}`]];
      case 'extra-word':
        return token(`${key} extra`);
      case 'very-long':
        return token('k'.repeat(8000));
      case 'non-ascii':
        return token('sk-\u00e9\u00ff\u00a0key');
      case 'repeated-header':
        return [...token('sk-wrong-first'), [name, value]];
      case 'two-headers':
        return [
          [name, value],
          [OTHER_FAMILY_HEADER[style], 'sk-wrong-other'],
        ];
      case 'wrong-family-header':
        return [[OTHER_FAMILY_HEADER[style], key]];
      case 'wrong-key':
        return token('sk-wrong-0123456789');
      case 'other-role-key':
        return token(style === 'admin' ? keys.clientKey : keys.adminKey);
      case 'lowercase-scheme':
        return [['authorization', `bearer ${key}`]];
      case 'tab':
        return [['authorization', `Bearer\t${key}`]];
    }
  })();
  return [...headers, ...extra];
}
