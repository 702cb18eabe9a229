/**
 * How a channel type's settings schema is declared and checked. One check
 * serves the config file, the admin API and the CLI (before a channel is
 * written) and the channel registry (when a stored channel is loaded); they
 * differ only in what a stored record may keep: an unknown key, or a bad
 * value of a key that was never checked before the schemas existed, is
 * named as a warning and ignored rather than taking a serving channel down.
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { declaredJsonSchema, sharedSettingsMessages, sharedSettingsShape, unknownSettings } from './settings-schema.js';

export interface ChannelSettingsSpec {
  /**
   * Every key a channel of the type takes, the shared ones included; each
   * documented with `.describe()`. Built on its first read, then the same
   * object every time: a start builds only the schemas of the types its
   * channels use.
   */
  readonly schema: z.ZodObject;
  /** Keys whose bad value a stored channel may keep (ignored with a warning): they were read leniently before. */
  readonly looseWhenStored: readonly string[];
  /** Defaults that follow from another key's value (openai-chat's `preset`), filled in before the schema's own. */
  readonly impliedDefaults?: ImpliedDefaults;
}

/**
 * Defaults one key's value implies: `byValue[settings[key]]`, a key the
 * settings set winning. Data, not a function, so the admin API can publish
 * it and the console show the defaults a channel will really get.
 */
export interface ImpliedDefaults {
  readonly key: string;
  readonly byValue: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** A type's settings: its own keys (built by `shape`, on the schema's first read) beside the shared ones. */
export function channelSettings(shape: () => z.ZodRawShape, looseWhenStored: readonly string[] = [], impliedDefaults?: ImpliedDefaults): ChannelSettingsSpec {
  const schema = builtOnce(() => z.object({ ...sharedSettingsShape(), ...shape() }));
  return {
    get schema() {
      return schema();
    },
    looseWhenStored: ['strictTranslation', ...looseWhenStored],
    impliedDefaults,
  };
}

/** `settings` with the defaults its other keys imply (see `impliedDefaults`); parsed once per refresh, never per request. */
function withImpliedDefaults(spec: ChannelSettingsSpec, settings: Record<string, unknown>): Record<string, unknown> {
  const implied = spec.impliedDefaults;
  // The value may be anything here: the schema has not run yet.
  const value = implied ? settings[implied.key] : undefined;
  const defaults = implied && typeof value === 'string' && Object.hasOwn(implied.byValue, value) ? implied.byValue[value] : undefined;
  return defaults ? { ...defaults, ...settings } : settings;
}

export interface SettingsCheck {
  /** The first reason the settings cannot be used, its field named `settings.<key>`. */
  problem?: { field: string; message: string };
  /** What a stored channel keeps but the gateway ignores (unknown keys, bad values of leniently read keys). */
  warnings: string[];
}

/** Checks `settings` as written (`stored: false`: anything unknown or bad is a problem) or as loaded from storage. */
export function checkChannelSettings(type: string, spec: ChannelSettingsSpec, settings: Record<string, unknown>, stored: boolean): SettingsCheck {
  const warnings: string[] = [];
  const known = Object.keys(spec.schema.shape);
  const unknown = unknownSettings(type, settings, known);
  if (unknown.length > 0 && !stored) return { problem: { field: `settings.${unknown[0].shown}`, message: unknown[0].message }, warnings };
  warnings.push(...unknown.map((entry) => `${entry.message}; ignored`));
  const parsed = spec.schema.safeParse(
    withoutKeys(
      settings,
      unknown.map((entry) => entry.key),
    ),
  );
  if (parsed.success) return { warnings };
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '');
    const field = ['settings', ...issue.path.map(String)].join('.');
    const message = sharedSettingsMessages[key] ?? issue.message;
    if (stored && spec.looseWhenStored.includes(key)) warnings.push(`${field} ${message}; ignored`);
    else return { problem: { field, message }, warnings };
  }
  return { warnings };
}

/**
 * The settings an adapter reads, parsed once when a stored channel is loaded
 * (its rules already passed): defaults filled in, numbers written as strings
 * read as numbers, and what a stored channel may keep but the gateway
 * ignores (unknown keys, bad values of leniently read keys) left out.
 */
export function parseStoredSettings(type: string, spec: ChannelSettingsSpec, settings: Record<string, unknown>): Record<string, unknown> {
  const known = withoutKeys(
    settings,
    unknownSettings(type, settings, Object.keys(spec.schema.shape)).map((entry) => entry.key),
  );
  const parsed = spec.schema.safeParse(withImpliedDefaults(spec, known));
  if (parsed.success) return parsedOnce(parsed.data);
  const ignored = parsed.error.issues.map((issue) => String(issue.path[0] ?? '')).filter((key) => spec.looseWhenStored.includes(key));
  const retried = spec.schema.safeParse(withImpliedDefaults(spec, withoutKeys(known, ignored)));
  // Only a channel the rules passed is parsed here; should one fail anyway, its adapters read the raw record as they always could.
  return retried.success ? parsedOnce(retried.data) : settings;
}

/** The settings objects `parseStoredSettings` returned: a typed reader takes them as they are (see typed-settings.ts). */
const parsedSettings = new WeakSet<object>();

function parsedOnce(settings: Record<string, unknown>): Record<string, unknown> {
  parsedSettings.add(settings);
  return settings;
}

/** Whether `settings` came out of `parseStoredSettings` (defaults filled in, values in their read form). */
export function isParsedSettings(settings: object): boolean {
  return parsedSettings.has(settings);
}

function withoutKeys(settings: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  if (keys.length === 0) return settings;
  return Object.fromEntries(Object.entries(settings).filter(([key]) => !keys.includes(key)));
}

const jsonSchemas = new WeakMap<ChannelSettingsSpec, Record<string, unknown>>();

/** The JSON Schema of a type's settings, as the admin API and the docs show it; built once per type. */
export function settingsJsonSchema(spec: ChannelSettingsSpec): Record<string, unknown> {
  let built = jsonSchemas.get(spec);
  if (!built) jsonSchemas.set(spec, (built = buildJsonSchema(spec)));
  return built;
}

function buildJsonSchema(spec: ChannelSettingsSpec): Record<string, unknown> {
  const json = z.toJSONSchema(spec.schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const declared = declaredJsonSchema(zodSchema as unknown as z.ZodType);
      if (declared) Object.assign(jsonSchema, withoutAlternatives(jsonSchema), declared);
      else Object.assign(jsonSchema, withoutNull(jsonSchema));
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, additionalProperties: false };
}

/** Null stands for unset wherever it is taken; the schema shows only the value an operator writes. */
function withoutNull(json: Record<string, unknown>): Record<string, unknown> {
  const options = json.anyOf;
  if (!Array.isArray(options)) return {};
  const kept = options.filter((option) => (option as { type?: unknown }).type !== 'null');
  if (kept.length !== 1) return kept.length === options.length ? {} : { anyOf: kept };
  delete json.anyOf;
  return kept[0] as Record<string, unknown>;
}

function withoutAlternatives(json: Record<string, unknown>): Record<string, unknown> {
  for (const key of ['anyOf', 'type', 'pattern']) delete json[key];
  return {};
}
