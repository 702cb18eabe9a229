/**
 * The price catalogue's providers as JSON beside the bundle: the build
 * (scripts/bundle.mjs) writes `price-catalogue.json` from the installed
 * @pydantic/genai-prices, and the bundled gateway reads that (about 10 ms to
 * parse) instead of compiling and running the package's half megabyte of code
 * (60 to 150 ms). A snapshot of another release than CATALOGUE_RELEASE is not
 * used. Run from the sources, there is none: the package is read instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Provider } from '@pydantic/genai-prices';

export const SNAPSHOT_FILE = 'price-catalogue.json';

export interface CatalogueSnapshot {
  package: string;
  version: string;
  providers: Provider[];
}

/** The providers of the snapshot beside the running code, when there is one of `version`. */
export function readSnapshot(moduleUrl: string, version: string): Provider[] | undefined {
  const file = join(dirname(fileURLToPath(moduleUrl)), SNAPSHOT_FILE);
  if (!existsSync(file)) return undefined;
  let snapshot: CatalogueSnapshot;
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as CatalogueSnapshot;
  } catch {
    // A damaged snapshot is as good as none: the package is read instead.
    return undefined;
  }
  return snapshot?.version === version && Array.isArray(snapshot.providers) ? snapshot.providers : undefined;
}
