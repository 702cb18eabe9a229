/**
 * The field × upstream tables of docs/translation/<family>.md are what the
 * families' conversions and the adapters' plans decide today: regenerated
 * here from the same probes `npm run docs:reference` uses.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { translationDocs } from '../../scripts/reference/translation-tables.js';
import { END_MARKER, START_MARKER, spliceTable } from '../../scripts/reference/translation/tables.js';

const docs = await translationDocs(process.cwd());

describe('translation plan tables', () => {
  it.each(Object.entries(docs))('%s matches the code', async (file, text) => {
    const committed = await readFile(file, 'utf8');
    expect(committed, `${file} differs from what the adapters decide: run npm run docs:reference and commit the result`).toBe(text);
  });

  it('every document has one generated block, and only the block is replaced', () => {
    for (const text of Object.values(docs)) {
      expect(text.split(START_MARKER)).toHaveLength(2);
      expect(text.split(END_MARKER)).toHaveLength(2);
    }
    const doc = `# Title\n\nProse.\n\n${START_MARKER}\n\nold table\n\n${END_MARKER}\n\nMore prose.\n`;
    expect(spliceTable('doc.md', doc, '| a |')).toBe(`# Title\n\nProse.\n\n${START_MARKER}\n\n| a |\n\n${END_MARKER}\n\nMore prose.\n`);
    expect(() => spliceTable('doc.md', '# No block\n', '| a |')).toThrow('doc.md has no generated block');
  });
});
