/**
 * Where better-sqlite3's compiled addon is, handed to the driver as
 * `nativeBinding`. Without it the driver asks the `bindings` package, which
 * finds the addon by walking the caller's stack and probing a dozen folders;
 * in the bundle (which carries the driver's JavaScript, so that it runs from
 * the code cache) that caller is the bundle itself, and the probe would look
 * in the wrong package. An install built from source or from a prebuilt
 * binary puts it in the same place.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const requireFromHere = createRequire(import.meta.url);

export function sqliteAddonPath(): string {
  return join(dirname(requireFromHere.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
}
