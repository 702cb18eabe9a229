/**
 * How an upstream reads its channel's settings typed: in full as its schema
 * outputs them, every default filled in, so each rule and default is written
 * once, in the schema (`<type>/settings.ts`).
 *
 * The rule: the channel registry parses a serving channel's settings once per
 * refresh (`parseStoredSettings`), and a reader takes that object as it is. A
 * settings object the registry did not parse (the built-in simulator's, a
 * disabled channel's whose tasks are still polled, a test's) is parsed by the
 * same schema on its first read, once per object. A value the schema refuses
 * never reaches an adapter: the registry sets such a channel aside, and a
 * first read refuses it here, naming the setting.
 */
import type { z } from 'zod';
import { GatewayError } from '../core/errors.js';
import { channelSettings, checkChannelSettings, isParsedSettings, parseStoredSettings, type ChannelSettingsSpec } from './settings-check.js';
import type { sharedSettingsShape } from './settings-schema.js';

/** A type's settings as its schema outputs them: the shared keys and its own, defaults filled in. */
export type TypedSettings<Shape extends z.ZodRawShape> = Readonly<z.output<z.ZodObject<ReturnType<typeof sharedSettingsShape> & Shape>>>;

/** The settings a shape builder's schema outputs (`TypedSettings` of the shape it builds). */
export type TypedSettingsOf<BuildShape extends () => z.ZodRawShape> = TypedSettings<ReturnType<BuildShape>>;

/** What holds a channel's settings: the channel itself, or a test's stand-in for one. */
export interface SettingsHolder {
  readonly name: string;
  readonly settings: Record<string, unknown>;
}

export interface TypedChannelSettings<Shape extends z.ZodRawShape> {
  /** The type's schema, for its `CHANNEL_TYPES` entry. */
  readonly spec: ChannelSettingsSpec;
  /** A channel's settings, typed. */
  of(channel: SettingsHolder): TypedSettings<Shape>;
  /** A settings record, typed: the registry-parsed one as it is, any other parsed once (refused naming `channel` when given). */
  read(settings: Record<string, unknown>, channel?: string): TypedSettings<Shape>;
}

/**
 * A channel type's settings schema and its typed reader, built from the
 * type's shape. `shape` builds the keys' schemas; it runs at the schema's
 * first read, so a type no channel uses costs nothing at start.
 */
export function typedChannelSettings<Shape extends z.ZodRawShape>(
  type: string,
  shape: () => Shape,
  looseWhenStored: readonly string[] = [],
  impliedDefaults?: ChannelSettingsSpec['impliedDefaults'],
): TypedChannelSettings<Shape> {
  const spec = channelSettings(shape, looseWhenStored, impliedDefaults);
  const parsedOnRead = new WeakMap<object, TypedSettings<Shape>>();
  const read = (settings: Record<string, unknown>, channel?: string): TypedSettings<Shape> => {
    if (isParsedSettings(settings)) return settings as TypedSettings<Shape>;
    let typed = parsedOnRead.get(settings);
    if (!typed) {
      const parsed = parseStoredSettings(type, spec, settings);
      if (!isParsedSettings(parsed)) {
        const problem = checkChannelSettings(type, spec, settings, true).problem;
        throw new GatewayError('internal', `${type} channel${channel === undefined ? '' : ` ${channel}`}: ${problem ? `${problem.field} ${problem.message}` : 'settings do not match the type'}`);
      }
      typed = parsed as TypedSettings<Shape>;
      parsedOnRead.set(settings, typed);
    }
    return typed;
  };
  return { spec, read, of: (channel) => read(channel.settings, channel.name) };
}
