/**
 * dist/bundle/main.js (scripts/bundle.mjs copies this file there): runs the
 * bundled gateway, `gateway.cjs` beside it, from V8's code cache when one
 * matches. Node 20 has no module compile cache, and compiling the bundle was
 * the largest part of a cold start; a script compiled through `vm.Script`
 * can be given the code V8 produced for it before (`cachedData`), which
 * skips parsing and compiling whatever that code covers.
 *
 * `gateway.cjs.cache` holds the SHA-256 of the bundle it was made from, then
 * V8's data. It is used only when the hash matches this bundle (V8 itself
 * checks its version and flags, and refuses a cache made by another). When
 * there is no matching cache, or V8 refused it, the gateway compiles as
 * usual and a new cache is written when the process exits (best effort: a
 * read-only directory keeps none). `scripts/bundle.mjs` makes the first one
 * at build time by starting the gateway once and stopping it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const dir = path.dirname(fileURLToPath(import.meta.url));
const bundle = path.join(dir, 'gateway.cjs');
const cacheFile = `${bundle}.cache`;

/**
 * Compiles the bundle, from the cache when it matches. The file's bytes and
 * the cache's are locals: once V8 has them, their 4-5 MB are garbage, which
 * top-level constants of this module would keep for the life of the process.
 */
function compile() {
  const source = readFileSync(bundle);
  const digest = createHash('sha256').update(source).digest();
  const cachedData = matchingCache(digest);
  // The bundle holds no `import()` (scripts/bundle.mjs turns each into a require), so the script needs no import callback.
  // The bundle is already wrapped as a CommonJS module (scripts/bundle.mjs): compiled as it is, no copy.
  const script = new vm.Script(source.toString('utf8'), { filename: bundle, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      // Everything compiled by now (start-up, and whatever requests ran) goes into the cache.
      const temporary = `${cacheFile}.${process.pid}`;
      try {
        flagsAsCompiled();
        writeFileSync(temporary, Buffer.concat([digest, script.createCachedData()]));
        renameSync(temporary, cacheFile);
      } catch {
        // No cache this time (e.g. a read-only install): the next start compiles again.
        rmSync(temporary, { force: true });
      }
    });
  }
  return script;
}

/** The cache's V8 data when it was made from this very bundle (its SHA-256 first), else undefined. */
function matchingCache(digest) {
  let stored;
  try {
    stored = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  return stored.length > digest.length && stored.subarray(0, digest.length).equals(digest) ? stored.subarray(digest.length) : undefined;
}

/**
 * How far V8 lets the old generation grow past what the last full collection
 * kept: 1.3 ×, unless the operator chose (`node --heap-growing-percent=N`).
 * Left to itself V8 allows up to 4 × when collections look cheap, and under
 * steady load the gateway's RSS climbed by about 30 MB over 200k requests
 * before its first full collection; at 1.3 × it stays flat, for a few more
 * full collections of about 10 ms (docs/decisions.md).
 *
 * Set once the gateway listens (it emits `switchyard:listening` on
 * `process`), not at start: V8 checks every code cache against the flags it
 * was made under, Node's own for its built-in modules included, so with the
 * flag changed every `node:` module loaded afterwards (http, crypto, net,
 * tls, zlib, … at the start) compiled from source, about 30 ms of a Node 24
 * start. By its listen a start has loaded every built-in the gateway uses
 * (none at its first requests), and the bound is for the heap's growth
 * under load. The flag goes back to V8's default before a code cache is
 * written, so the cache matches the next start's flags.
 */
const chosenGrowth = process.execArgv.some((option) => option.replaceAll('_', '-').startsWith('--heap-growing-percent'));
let growthBounded = false;

function boundOldGenerationGrowthOnListen() {
  if (chosenGrowth) return;
  process.once('switchyard:listening', () => {
    v8.setFlagsFromString('--heap-growing-percent=30');
    growthBounded = true;
  });
}

/** V8's flags back as they were at the compile (0 is the option's default: no flag set), for the cache written at exit. */
function flagsAsCompiled() {
  if (growthBounded) v8.setFlagsFromString('--heap-growing-percent=0');
}

boundOldGenerationGrowthOnListen();
const module = { exports: {} };
compile().runInThisContext()(module.exports, createRequire(bundle), module, bundle, dir);
