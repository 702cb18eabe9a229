/**
 * Every channel type declares its settings as one schema: the config file,
 * the admin API, the CLI, docs/reference.md and the console all read it, so
 * a type without one, or a reader function beside it, would let a setting
 * escape them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNEL_TYPES } from '../../src/upstreams/registry.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('channel settings', () => {
  it('every channel type declares a settings schema, every key described', () => {
    for (const { type, settings } of CHANNEL_TYPES) {
      expect(settings.schema.def.type, type).toBe('object');
      for (const [key, schema] of Object.entries(settings.schema.shape)) expect(schema.description, `${type}.${key}`).toBeTruthy();
      // Keys a stored channel may keep a bad value of must be keys of the schema.
      for (const key of settings.looseWhenStored) expect(Object.keys(settings.schema.shape), `${type}: ${key}`).toContain(key);
    }
  });

  it('no settings reader function type is left beside the schemas', () => {
    const offenders = sourceFiles(SRC).filter((file) => /\bSettingsReader\b/.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => path.relative(SRC, file))).toEqual([]);
  });
});
