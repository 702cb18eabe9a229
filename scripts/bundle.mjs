/**
 * Bundles the server into dist/bundle/main.js for `npm start` (and the CLI
 * into dist/bundle/cli.js for `npm run cli`; see launch.mjs). Loading one
 * minified file instead of hundreds of small ESM modules cuts the cold start
 * by more than half. Dynamic imports (PostgreSQL, Redis drivers) become
 * separate chunks that load only when configured. Native modules stay
 * external and resolve from node_modules.
 */
import { build } from 'esbuild';

/** The output folder: dist/bundle, or the first argument (tests build a scratch copy). */
const outdir = process.argv[2] ?? 'dist/bundle';

await build({
  entryPoints: { main: 'src/main.ts', cli: 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  minify: true,
  sourcemap: 'linked',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  external: [
    'better-sqlite3',
    'pg-native',
    // Code the gateway never runs at start, left out so that no start compiles it; when it is needed,
    // node_modules provides it (all are dependencies of fastify): fastify's JSON Schema compilers
    // (loaded only for a route with a schema, src/server/schema-compilers.ts) and `inject()`'s
    // light-my-request (tests run the sources, not the bundle).
    '@fastify/ajv-compiler',
    '@fastify/fast-json-stringify-compiler',
    'light-my-request',
  ],
  // Bundled CommonJS dependencies call require(); give them one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
