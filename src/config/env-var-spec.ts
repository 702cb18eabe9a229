/** What an entry of the environment-variable table (`env-vars.ts`) may say, and the sections the reference groups them in. */

export type EnvKind = 'string' | 'integer' | 'fraction' | 'on-off' | 'list' | 'url' | 'host' | 'file';

export interface EnvVarSpec {
  kind: EnvKind;
  /** The value used when the variable is unset or blank; absent: unset means "none". */
  default?: string | number;
  /** What the reference shows when there is no fixed default (generated, derived). */
  defaultText?: string;
  /** Smaller integers are raised to this (a zero would spin or disable a safety). */
  min?: number;
  /** Smaller integers are refused instead of raised (a bound of 0 would refuse every answer). */
  refuseBelowMin?: boolean;
  /** Larger integers are refused. */
  max?: number;
  /** The value must be one of these words. */
  values?: readonly string[];
  /** A URL's scheme must be one of these (without `://`). */
  schemes?: readonly string[];
  /** A string of at least this many characters, and not an example's placeholder. */
  minLength?: number;
  /** Shorter values are accepted with a warning at start: a passphrase that already seals data cannot simply be refused. */
  weakBelow?: number;
  /** The value must match this; `means` says how, in the message and the reference. */
  pattern?: { test: RegExp; means: string };
  /** A list whose every entry is an IP address or CIDR range. */
  addresses?: true;
  /** A credential: a message about it never repeats the value. */
  secret?: true;
  section: EnvSection;
  description: string;
}

export type EnvSection = 'server' | 'sso' | 'observability' | 'storage' | 'routing' | 'tasks';

export const ENV_SECTIONS: Record<EnvSection, string> = {
  server: 'Server and access',
  sso: 'Single sign-on (console)',
  observability: 'Access log and traces',
  storage: 'Storage and scaling out',
  routing: 'Routing and upstreams',
  tasks: 'Image and video tasks',
};
