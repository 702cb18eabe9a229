/**
 * The catalogue says which data it is (`about`): the release of
 * @pydantic/genai-prices and the day it was published. A bump of the
 * dependency fails here until CATALOGUE_RELEASE (src/billing/catalogue.ts) is
 * updated, date included: `npm view @pydantic/genai-prices time --json`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, it } from 'vitest';
import { CATALOGUE_RELEASE, GenaiPricesCatalogue } from '../../src/billing/catalogue.js';

it('names the installed release of the package, with its publication date', () => {
  // The package exports no ./package.json: its manifest sits two folders above its entry (dist/index.cjs).
  const manifest = path.join(path.dirname(createRequire(import.meta.url).resolve('@pydantic/genai-prices')), '..', 'package.json');
  const installed = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string };
  expect(installed.name).toBe(CATALOGUE_RELEASE.package);
  expect(installed.version, 'the dependency changed: update CATALOGUE_RELEASE.version and .date in src/billing/catalogue.ts').toBe(CATALOGUE_RELEASE.version);
  expect(CATALOGUE_RELEASE.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(new GenaiPricesCatalogue().about).toEqual({ package: '@pydantic/genai-prices', version: installed.version, date: CATALOGUE_RELEASE.date });
});
