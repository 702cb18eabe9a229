/**
 * What every channel type's settings schema is built from: the keys valid on
 * a channel of any type (`costs`, `listedModels`, `strictTranslation`), the
 * value shapes several types share, and the check that names an unknown key
 * with the closest known one. Each type's own keys live in its folder
 * (`<type>/settings.ts`); its `CHANNEL_TYPES` entry joins them with these.
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { closestName } from '../core/closest-name.js';

/** Keys valid on every channel type; built with the first type's schema that is read. */
export const sharedSettingsShape = builtOnce(() => ({
  costs: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('What the provider charges the gateway, per model name or `prefix*` pattern, in the price schema (checked against it when stored). Says nothing about what clients pay.'),
  listedModels: z
    .array(z.string().refine((name) => name !== '' && !name.endsWith('*')))
    .optional()
    .describe('The exact model names /v1/models shows for the pattern entries of `models`.')
    .meta({ examples: [['gpt-4o', 'gpt-4o-mini']] }),
  strictTranslation: z
    .boolean({ error: 'must be true or false' })
    .default(false)
    .describe('Refuse a translated request that would lose a feature on this channel instead of dropping it with a warning header.'),
}));

/** Messages for the shared keys whose rules are older than the schema, kept as operators know them. */
export const sharedSettingsMessages: Record<string, string> = {
  listedModels: 'must be a list of exact model names (the names /v1/models shows for pattern entries)',
};

/**
 * How a setting whose schema transforms its input (a pipe, which JSON Schema
 * cannot show) appears in the JSON Schema: the value an operator writes.
 */
const shownAs = new WeakMap<z.ZodType, Record<string, unknown>>();

/** The JSON Schema to show for `schema` in place of what zod derives, if one was declared. */
export function declaredJsonSchema(schema: z.ZodType): Record<string, unknown> | undefined {
  return shownAs.get(schema);
}

function documented<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  shownAs.set(schema, json);
  return schema;
}

interface NumberSetting<Default extends number | undefined> {
  min: number;
  max?: number;
  integer?: boolean;
  /** What the refusal says the value must be, when the bounds alone do not say it. */
  rule?: string;
  description: string;
  /** The value read when the setting is unset (or null); absent: it reads as undefined. */
  default?: Default;
}

/** A number, or a string holding one (older configs wrote them quoted), within bounds; null stands for unset, read as the default. */
export function numberLike<Default extends number | undefined = undefined>({
  min,
  max = Number.POSITIVE_INFINITY,
  integer = false,
  rule: stated,
  description,
  default: fallback,
}: NumberSetting<Default>) {
  const rule = stated ?? (max === Number.POSITIVE_INFINITY ? `a number >= ${min}` : `a number from ${min} to ${max}`);
  const schema = z
    .union([z.number(), z.string().regex(/\S/)], { error: `must be ${rule}` })
    .nullish()
    .refine((raw) => {
      if (raw === undefined || raw === null) return true;
      const value = Number(raw);
      return Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value));
    }, `must be ${rule}`)
    .transform((raw) => (raw === undefined || raw === null ? fallback : Number(raw)) as Default extends number ? number : number | undefined)
    .describe(description);
  return documented(schema, {
    type: integer ? 'integer' : 'number',
    minimum: min,
    ...(max === Number.POSITIVE_INFINITY ? {} : { maximum: max }),
    ...(fallback === undefined ? {} : { default: fallback }),
  });
}

/** A boolean that is on unless `false`; any other value is refused rather than read as on. */
export const onUnlessFalse = (description: string) => z.boolean({ error: 'must be true or false' }).default(true).describe(description);

/** A positive integer byte bound; null stands for the default. */
export const byteLimit = (fallback: number, description: string) =>
  documented(
    z
      .number({ error: 'must be a positive integer' })
      .int('must be a positive integer')
      .positive('must be a positive integer')
      .nullish()
      .transform((value) => value ?? fallback)
      .describe(description),
    { type: 'integer', exclusiveMinimum: 0, default: fallback },
  );

/** `true`: every task fails; a list: tasks of the listed names fail. */
export const failTasksSetting = (rule: string, description: string) =>
  documented(
    z
      .union([z.boolean(), z.array(z.string())], { error: `must be ${rule}` })
      .nullish()
      .transform((value) => value ?? false)
      .describe(description),
    { anyOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string' } }], default: false },
  );

export interface UnknownSetting {
  key: string;
  /** The key as messages show it: cut short, since it comes from whoever wrote the settings. */
  shown: string;
  message: string;
}

/** The keys of `settings` no key of `shape` names, each with the closest known name when one is near. */
export function unknownSettings(type: string, settings: Record<string, unknown>, known: readonly string[]): UnknownSetting[] {
  return Object.keys(settings)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const closest = closestName(key, known);
      const shown = key.slice(0, 60);
      return { key, shown, message: `unknown setting \`${shown}\` for ${articleFor(type)} ${type} channel${closest ? `; did you mean \`${closest}\`?` : ` (known: ${known.join(', ')})`}` };
    });
}

function articleFor(type: string): string {
  return /^[aeiou]/i.test(type) ? 'an' : 'a';
}
