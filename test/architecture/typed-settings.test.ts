/**
 * Channel settings reach an upstream typed. Each channel type's rules and
 * defaults are written once, in its schema (`src/upstreams/<type>/settings.ts`,
 * which takes the keys of the protocol it speaks from
 * `src/upstreams/protocols/<dialect>/settings.ts`), and its adapters read the parsed value (`src/upstreams/typed-settings.ts`).
 * So no other file in an upstream's or a protocol's folder reads the untyped record
 * (`channel.settings`, `.settings[…]`, `settings as …`), and none re-checks a
 * settings value or writes its default again (`typeof … settings`,
 * `settings.x ?? fallback`, `settings.x !== false`, a refusal saying what a
 * setting must be), the chat adapters included: their `prepare` receives
 * the typed value (registry.ts `chatAdapter`). Nor do the task engine and the task families: they ask
 * the upstreams' typed readers (e.g. the image accounts, accounts-setting.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNEL_TYPES } from '../../src/upstreams/registry.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const UPSTREAMS = path.join(ROOT, 'src/upstreams');

/** Reading the settings record as it is stored, untyped. */
const RAW_READS: readonly RegExp[] = [/\bchannel\.settings\b/, /\.settings\[/, /\bsettings as\b/];

/** Checking a settings value, or writing its default, outside the schema. */
const RE_CHECKS: readonly RegExp[] = [
  /\btypeof\s+[\w.?]*settings\b/i,
  /settings(?:Of\([^)]*\))?\??\.\w+\s*(?:\?\?|[!=]==\s*(?:true|false)\b)/i,
  /['"`][^'"`\n]*\bsetting\s+(?:\S+\s+must\b|[\w.]*\$\{)|channel \$\{channel\.name\}: setting\b/,
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * The files of every channel type's folder and of every protocol folder
 * (protocols/<dialect>/, which a type's adapter is built from) but their
 * settings modules (settings.ts, and the simulator's per side), by their path
 * from src/upstreams/.
 */
function adapterFiles(): string[] {
  return [...CHANNEL_TYPES.map((entry) => entry.type), 'protocols']
    .flatMap((folder) => filesUnder(path.join(UPSTREAMS, folder)))
    .map((file) => path.relative(UPSTREAMS, file).split(path.sep).join('/'))
    .filter((file) => !/(^|\/)settings\.ts$/.test(file));
}

/** Source text without comments, so that a comment naming `channel.settings` is no finding. */
function code(file: string): string {
  return readFileSync(path.join(UPSTREAMS, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

const finds = (text: string, patterns: readonly RegExp[]) => patterns.some((pattern) => pattern.test(text));

describe('typed channel settings', () => {
  const files = adapterFiles();

  it('finds the upstream folders', () => {
    expect(files).toContain('wan/index.ts');
    expect(files).toContain('simulator/images/index.ts');
    expect(files).toContain('anthropic/endpoint.ts');
    expect(files).toContain('protocols/chat-completions/pass-through.ts');
    expect(files).not.toContain('protocols/messages/settings.ts');
    expect(files).not.toContain('wan/settings.ts');
    expect(files).not.toContain('simulator/images/settings.ts');
  });

  it('no adapter file reads the untyped settings record', () => {
    const offenders = files.filter((file) => finds(code(file), RAW_READS));
    expect(offenders, 'read the typed settings (`<type>SettingsOf(channel)`, src/upstreams/typed-settings.ts) instead').toEqual([]);
  });

  it('no adapter file re-checks a settings value or writes its default again', () => {
    const offenders = files.filter((file) => finds(code(file), RE_CHECKS));
    expect(offenders, 'put the rule or the default in the type schema (`.default()`, a transform) and read the typed value').toEqual([]);
  });

  it('the task engine and the task families read settings only through the upstreams typed readers', () => {
    const offenders = ['src/tasks', 'src/families/images', 'src/families/videos']
      .flatMap((dir) => filesUnder(path.join(ROOT, dir)))
      .filter((file) => finds(readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, ''), RAW_READS))
      .map((file) => path.relative(ROOT, file));
    expect(offenders).toEqual([]);
  });

  it('the shared upstream plumbing reads settings only through the typed reader', () => {
    const shared = readdirSync(UPSTREAMS).filter((name) => name.endsWith('.ts') && !['settings-check.ts', 'settings-schema.ts', 'typed-settings.ts'].includes(name));
    const offenders = shared.filter((file) => finds(code(file), RAW_READS));
    expect(offenders).toEqual([]);
  });
});
