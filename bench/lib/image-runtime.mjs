/**
 * How the image runs Node, read from the Dockerfile so that the two cannot
 * drift: the V8 flags its `node-flags` line gives a Node line (the young
 * generation's bounds from Node 24 on, none on 20 and 22) and the allocator
 * setting it exports (`MALLOC_TRIM_THRESHOLD_`). The bench starts the
 * gateway and the floor proxy alike under them, so memory and start-up are
 * measured as shipped and the floor pays the same runtime's costs;
 * BENCH_RUNTIME=bare starts both with neither.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dockerfile = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'Dockerfile'), 'utf8');

/** { nodeArgs, env, label } for a Node version such as `v24.1.0`. */
export function imageRuntime(nodeVersion) {
  if (process.env.BENCH_RUNTIME === 'bare') return { nodeArgs: [], env: {}, label: 'bare Node (BENCH_RUNTIME=bare)' };
  const major = String(nodeVersion).replace(/^v/, '').split('.')[0];
  const flagsLine = /^RUN case "\$\{NODE_VERSION%%\.\*\}" in (\S+)\) : > \/app\/node-flags ;; \*\) echo "([^"]+)" > \/app\/node-flags ;; esac$/m.exec(dockerfile);
  if (!flagsLine) throw new Error("the Dockerfile's node-flags line changed: update bench/lib/image-runtime.mjs");
  const nodeArgs = flagsLine[1].split('|').includes(major) ? [] : flagsLine[2].split(' ');
  const trim = /MALLOC_TRIM_THRESHOLD_=(\d+)/.exec(dockerfile);
  const env = trim ? { MALLOC_TRIM_THRESHOLD_: trim[1] } : {};
  const label = `as the image runs Node ${major}: ${[...nodeArgs, ...Object.entries(env).map(([name, value]) => `${name}=${value}`)].join(' ') || 'no flags'}`;
  return { nodeArgs, env, label };
}
