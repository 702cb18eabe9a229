/**
 * Builds the web console (console/) into dist/console/: one minified script
 * and one stylesheet (uPlot's included), each named by its content hash, and
 * index.html pointing at them. Everything the page loads comes from the
 * gateway: no CDN, no web fonts. Prints the gzipped sizes.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The output folder: dist/console, or the first argument. */
const outdir = process.argv[2] ?? 'dist/console';

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
const result = await build({
  entryPoints: { console: 'console/src/main.tsx' },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: 'console/tsconfig.json',
  outdir,
  entryNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
const script = outputs.find((name) => name.endsWith('.js'));
const styles = outputs.find((name) => name.endsWith('.css'));
if (!script || !styles) throw new Error(`the console build wrote ${outputs.join(', ')}; expected one .js and one .css`);

const template = await readFile('console/index.html', 'utf8');
const page = template.replace('{{styles}}', `/console/${styles}`).replace('{{script}}', `/console/${script}`);
await writeFile(path.join(outdir, 'index.html'), page);

let total = 0;
const sizes = [];
for (const name of [script, styles, 'index.html']) {
  const gz = gzipSync(await readFile(path.join(outdir, name))).length;
  total += gz;
  sizes.push(`${name} ${(gz / 1024).toFixed(1)} kB`);
}
console.log(`console: ${sizes.join(', ')} gzipped; ${(total / 1024).toFixed(1)} kB in all`);
