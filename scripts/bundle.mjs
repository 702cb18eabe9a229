/**
 * Bundles the server into dist/bundle/gateway.cjs, run by dist/bundle/main.js
 * for `npm start` (and the CLI into dist/bundle/cli.js for `npm run cli`; see
 * launch.mjs). Loading one minified file instead of hundreds of small ESM
 * modules cuts the cold start by more than half; running it from V8's code
 * cache (scripts/gateway-loader.mjs, copied to main.js) skips compiling it,
 * the largest part of what remained. The gateway is one CommonJS script so
 * that `vm.Script` can take that cache; code the gateway loads on first use
 * (dynamic `import()`: undici, the PostgreSQL and Redis drivers, traces) stays
 * in it, costs nothing until it runs, and is compiled only then. The SQLite
 * driver's addon is handed to it from node_modules (src/storage/sqlite-driver.ts).
 * The CLI stays an ES module with its own chunks. The price catalogue's data
 * is written beside the gateway as JSON (`price-catalogue.json`, from the
 * installed @pydantic/genai-prices), which the gateway parses in a fraction of
 * the time the package's code takes to run (src/billing/catalogue-snapshot.ts).
 *
 * The build ends by starting the new gateway once (an empty data directory,
 * a config file with one channel and one key, a free port), asking /healthz,
 * sending one Messages request through that channel to a stub upstream in
 * this process, and stopping it: the loader writes the code cache as that
 * process exits, so a start's first request also runs from it.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { dependencyPatches } from './bundle-patches.mjs';

/** The output folder: dist/bundle, or the first argument (tests build a scratch copy). */
const outdir = process.argv[2] ?? 'dist/bundle';
const scriptsDir = path.dirname(fileURLToPath(import.meta.url));

const shared = {
  bundle: true,
  minify: true,
  sourcemap: 'linked',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
};

const external = [
  // The SQLite driver's JavaScript is bundled (into the code cache); its addon is loaded by path
  // (src/storage/sqlite-driver.ts), so the package that better-sqlite3 12 would look for it with is never loaded.
  'bindings',
  'pg-native',
  // Code the gateway never runs at start, left out so that no start compiles it; when it is needed,
  // node_modules provides it (all are dependencies of fastify): fastify's JSON Schema compilers
  // (loaded only for a route with a schema, src/server/schema-compilers.ts) and `inject()`'s
  // light-my-request (tests run the sources, not the bundle).
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  'light-my-request',
  // ws's optional native speed-ups; it runs without them.
  'bufferutil',
  'utf-8-validate',
];

/**
 * What the gateway reaches only through `import()` and only in some deployments is built into files
 * of its own beside gateway.cjs (the bundle `require`s them when that import runs): left inside, their
 * 0.5 MB of source would be read, hashed and kept in memory by every start that never runs them.
 * `specifier` is what the sources import; `entry`, what the file is built from.
 */
const separateFiles = [
  { specifier: '../observe/tracing.js', entry: 'src/observe/tracing.ts', file: 'tracing.cjs' }, // traces, when an endpoint is set
  { specifier: 'pg', entry: 'pg', file: 'pg.cjs' }, // PostgreSQL storage
  { specifier: 'ioredis', entry: 'ioredis', file: 'ioredis.cjs' }, // Redis
  { specifier: 'ws', entry: 'ws', file: 'ws.cjs' }, // the Responses WebSocket, at its first handshake
  { specifier: 'google-auth-library', entry: 'google-auth-library', file: 'google-auth.cjs' }, // a vertex channel's first service-account token
  { specifier: './aws-sdk-parts.js', entry: 'src/upstreams/aws-sdk-parts.ts', file: 'aws-sdk.cjs' }, // a bedrock channel's first request
  { specifier: 'openid-client', entry: 'openid-client', file: 'openid-client.cjs' }, // the console's first single sign-on (an ES module, built into CommonJS here)
];

/** The imports of `separateFiles`, left to `require('./<file>')` at run time. */
const requireSeparateFiles = {
  name: 'separate-files',
  setup(builder) {
    for (const { specifier, file } of separateFiles) {
      const filter = new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
      builder.onResolve({ filter }, () => ({ path: `./${file}`, external: true }));
    }
  },
};

/**
 * zod's `locales` namespace with English only: the gateway's messages are English, and the other
 * locales were a tenth of the bundle's source (266 kB).
 */
const englishOnlyZodLocales = {
  name: 'zod-english-only',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
    }));
  },
};

rmSync(path.join(outdir, 'chunks'), { recursive: true, force: true });

await build({
  ...shared,
  entryPoints: { cli: 'src/cli/main.ts' },
  splitting: true,
  format: 'esm',
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  external,
  plugins: [englishOnlyZodLocales],
  // Bundled CommonJS dependencies call require(); give them one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

await build({
  ...shared,
  entryPoints: { gateway: 'src/main.ts' },
  format: 'cjs',
  outdir,
  outExtension: { '.js': '.cjs' },
  external,
  plugins: [requireSeparateFiles, englishOnlyZodLocales, dependencyPatches],
  // Licence comments go to gateway.cjs.LEGAL.txt: they hold the only non-ASCII text, and an ASCII
  // bundle is a one-byte string that the loader decodes and V8 hashes in a fraction of the time.
  legalComments: 'linked',
  // The file is one function expression, the wrapper Node would put around a CommonJS module: the
  // loader compiles it as it was read, where wrapping it would copy its megabytes of string at each start.
  // The sources are ES modules: strict, as they ran when the bundle was one; `import.meta.url` is this file's URL.
  banner: { js: "(function (exports, require, module, __filename, __dirname) { 'use strict'; const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  footer: { js: '\n})' },
  define: { 'import.meta.url': '__importMetaUrl' },
  // A script run through `vm.Script` cannot `import()` without an experimental flag: what the bundle
  // leaves to Node and a dependency imports dynamically (the OTLP exporter's node:http) is required.
  supported: { 'dynamic-import': false },
});
// The separate files: plain CommonJS, compiled by Node when they are first required (no code cache: most starts never run them).
await build({
  ...shared,
  entryPoints: Object.fromEntries(separateFiles.map(({ entry, file }) => [file.replace(/\.cjs$/, ''), entry])),
  format: 'cjs',
  outdir,
  outExtension: { '.js': '.cjs' },
  external,
  legalComments: 'linked',
});
if (/[^\x00-\x7f]/.test(readFileSync(path.join(outdir, 'gateway.cjs'), 'latin1'))) {
  process.stderr.write('bundle: gateway.cjs holds non-ASCII text (write it as \\u escapes in the sources); each start decodes it slower\n');
}
await writePriceCatalogue(outdir);
copyFileSync(path.join(scriptsDir, 'gateway-loader.mjs'), path.join(outdir, 'main.js'));
rmSync(path.join(outdir, 'main.js.map'), { force: true });

await writeCodeCache(path.join(outdir, 'main.js'));

/** The price catalogue's providers as JSON, with the release they come from (a snapshot of another release is not used). */
async function writePriceCatalogue(dir) {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@pydantic/genai-prices');
  // The package exports no ./package.json: its manifest sits two folders above its entry (dist/index.cjs).
  const manifest = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'));
  const providers = await require(entry).waitForUpdate();
  writeFileSync(path.join(dir, 'price-catalogue.json'), JSON.stringify({ package: manifest.name, version: manifest.version, providers }));
}

/**
 * The upstream of the build's one request: answers every request with one small
 * Messages answer, so the request path (the Messages family, the pass-through,
 * undici) is compiled into the cache too.
 */
async function startStubUpstream() {
  const answer = JSON.stringify({
    id: 'msg_build',
    type: 'message',
    role: 'assistant',
    model: 'build-model',
    content: [{ type: 'text', text: 'ok' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  });
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(answer));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Starts the gateway once, asks /healthz and sends one chat request, then stops it, so the loader writes the code cache. */
async function writeCodeCache(entry) {
  const cacheFile = path.join(outdir, 'gateway.cjs.cache');
  rmSync(cacheFile, { force: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-build-'));
  const upstream = await startStubUpstream();
  // A config file, so that reading and applying one is in the cache too; its channel is the stub.
  const configPath = path.join(dataDir, 'switchyard.json');
  const channel = { name: 'build', type: 'anthropic', baseUrl: `http://127.0.0.1:${upstream.address().port}`, apiKey: 'x', models: ['build-model'] };
  const clientKey = 'sk-build-only-0000000000';
  writeFileSync(configPath, JSON.stringify({ channels: [channel], keys: [{ name: 'build', key: clientKey }] }));
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    SWITCHYARD_HOST: '127.0.0.1',
    SWITCHYARD_PORT: '0',
    SWITCHYARD_DATA_DIR: dataDir,
    SWITCHYARD_CONFIG: configPath,
    SWITCHYARD_ADMIN_KEY: 'sk-admin-build-only-000000000000',
    SWITCHYARD_LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const address = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the gateway did not start within 30 s')), 30_000);
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = output.match(/listening on (http:\/\/\S+)/);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.stderr.on('data', (chunk) => (output += chunk));
      exited.then(() => {
        clearTimeout(timer);
        reject(new Error('the gateway exited'));
      });
    });
    await fetch(`${address}/healthz`);
    const chat = await fetch(`${address}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': clientKey, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'build-model', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    // Not fatal: the cache then covers the start alone, and the first request compiles what it runs.
    if (chat.status !== 200) process.stderr.write(`bundle: the build's chat request answered ${chat.status}: ${(await chat.text()).slice(0, 300)}\n`);
  } catch (error) {
    process.stderr.write(`bundle: no code cache written (${error.message}); the gateway compiles at each start\n${output}\n`);
  } finally {
    child.kill('SIGTERM');
    await exited;
    upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (!existsSync(cacheFile)) process.stderr.write('bundle: the gateway wrote no code cache; it compiles at each start\n');
}
