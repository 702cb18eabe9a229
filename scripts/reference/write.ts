/**
 * `npm run docs:reference`: writes the generated documents (docs/reference.md,
 * docs/admin-api.md, and the tables of docs/translation/<family>.md) and the
 * console's admin API types (console/src/admin-api.d.ts, from the same
 * OpenAPI document the gateway serves). `--check` writes nothing and exits 1
 * when a committed file differs from what would be generated.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_TYPES_FILE, renderConsoleTypes } from './console-types.js';
import { generatedDocs } from './documents.js';
import { translationDocs } from './translation-tables.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const check = process.argv.includes('--check');
let stale = 0;
const generated = { ...generatedDocs(), ...(await translationDocs(root)), [CONSOLE_TYPES_FILE]: await renderConsoleTypes() };
for (const [file, text] of Object.entries(generated)) {
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
