/**
 * `npm run docs:reference`: writes the generated documents (docs/reference.md,
 * docs/admin-api.md, and the tables of docs/translation/<family>.md).
 * `--check` writes nothing and exits 1 when a committed file differs from
 * what would be generated.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedDocs } from './documents.js';
import { translationDocs } from './translation-tables.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const check = process.argv.includes('--check');
let stale = 0;
const docs = { ...generatedDocs(), ...(await translationDocs(root)) };
for (const [file, text] of Object.entries(docs)) {
  const target = path.join(root, file);
  const current = (() => {
    try {
      return readFileSync(target, 'utf8');
    } catch {
      return undefined;
    }
  })();
  if (current === text) continue;
  if (check) {
    process.stderr.write(`${file} is out of date: run npm run docs:reference\n`);
    stale++;
  } else {
    writeFileSync(target, text);
    process.stdout.write(`wrote ${file}\n`);
  }
}
process.exit(stale ? 1 : 0);
