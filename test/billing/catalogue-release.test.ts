/**
 * The catalogue says which data it is (`about`): the release of
 * @pydantic/genai-prices and the day it was published. A bump of the
 * dependency fails here until CATALOGUE_RELEASE (src/billing/catalogue.ts) is
 * updated, date included: `npm view @pydantic/genai-prices time --json`.
 * The build's JSON snapshot of the data is used only for that release.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, it } from 'vitest';
import { CATALOGUE_RELEASE, GenaiPricesCatalogue } from '../../src/billing/catalogue.js';
import { readSnapshot, SNAPSHOT_FILE } from '../../src/billing/catalogue-snapshot.js';

it('names the installed release of the package, with its publication date', () => {
  // The package exports no ./package.json: its manifest sits two folders above its entry (dist/index.cjs).
  const manifest = path.join(path.dirname(createRequire(import.meta.url).resolve('@pydantic/genai-prices')), '..', 'package.json');
  const installed = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string };
  expect(installed.name).toBe(CATALOGUE_RELEASE.package);
  expect(installed.version, 'the dependency changed: update CATALOGUE_RELEASE.version and .date in src/billing/catalogue.ts').toBe(CATALOGUE_RELEASE.version);
  expect(CATALOGUE_RELEASE.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(new GenaiPricesCatalogue().about).toEqual({ package: '@pydantic/genai-prices', version: installed.version, date: CATALOGUE_RELEASE.date });
});

it("reads the build's snapshot of the providers beside the running code, only of its own release", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-snapshot-'));
  try {
    const moduleUrl = pathToFileURL(path.join(dir, 'gateway.cjs')).href;
    expect(readSnapshot(moduleUrl, CATALOGUE_RELEASE.version)).toBeUndefined();
    const providers = [{ id: 'acme', name: 'Acme', api_pattern: 'x', models: [] }];
    writeFileSync(path.join(dir, SNAPSHOT_FILE), JSON.stringify({ package: CATALOGUE_RELEASE.package, version: CATALOGUE_RELEASE.version, providers }));
    expect(readSnapshot(moduleUrl, CATALOGUE_RELEASE.version)).toEqual(providers);
    expect(readSnapshot(moduleUrl, '0.0.1')).toBeUndefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
