/**
 * The console's admin API types (console/src/admin-api.d.ts) are what
 * `npm run docs:reference` generates from the admin OpenAPI document, so the
 * console is typechecked against the answers the gateway really describes.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CONSOLE_TYPES_FILE, renderConsoleTypes } from '../../scripts/reference/console-types.js';

describe('generated console types', () => {
  it(`${CONSOLE_TYPES_FILE} is up to date (npm run docs:reference)`, async () => {
    expect(await readFile(CONSOLE_TYPES_FILE, 'utf8')).toBe(await renderConsoleTypes());
  });

  it('names every answer the console reads', async () => {
    const text = await renderConsoleTypes();
    for (const name of [
      'KeyView',
      'ChannelView',
      'ChannelTypes',
      'LogPage',
      'LogDetail',
      'UsageSummary',
      'UsageSeries',
      'TaskPage',
      'TaskDetail',
      'PriceList',
      'PriceQuote',
      'PriceCatalogue',
      'Settings',
    ]) {
      expect(text).toContain(`        ${name}: {`);
    }
  });
});
