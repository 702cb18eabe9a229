/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. a bench run
 * with BENCH_CPU_PROF_DIR set): the functions with the most self time, and
 * self time per package or source file; or a sampling heap profile
 * (`.heapprofile`, from `profile-load.mjs --alloc`): bytes allocated per function.
 *
 *   node bench/profile-summary.mjs <file.cpuprofile | file.heapprofile> [--top 30]
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The bundle is minified: its frames are mapped back through its source maps
 * to the original file (a `src/…` file or a `node_modules` package) and line,
 * so the summary names the gateway's own code rather than `main.js:667`.
 */
const sourceMaps = new Map();
export function originalFrame(callFrame) {
  if (!callFrame.url.startsWith('file://') || callFrame.url.includes('/node_modules/') || !/\.c?js$/.test(callFrame.url)) return callFrame;
  if (!sourceMaps.has(callFrame.url)) {
    const mapFile = `${fileURLToPath(callFrame.url)}.map`;
    sourceMaps.set(callFrame.url, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null);
  }
  const entry = sourceMaps.get(callFrame.url)?.findEntry(callFrame.lineNumber, callFrame.columnNumber);
  if (!entry?.originalSource) return callFrame;
  const source = entry.originalSource.replace(/^(\.\.\/)+/, '/');
  return { ...callFrame, url: source.includes('node_modules/') ? source : `/dist${source.slice(source.indexOf('/src/'))}`, lineNumber: entry.originalLine };
}

/** Where a frame's code lives: `dist/src/…` file, `node_modules` package, `node:` internal, or a V8 pseudo-frame. */
export function ownerOf(url) {
  if (!url) return '(native / V8)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = url.indexOf('/dist/');
  if (dist !== -1) return url.slice(dist + 1);
  if (url.startsWith('node:')) return url.split('/')[0].replace(/^node:internal.*/, 'node:internal');
  return url.replace(/^file:\/\//, '');
}

function frameKey({ callFrame }) {
  const name = callFrame.functionName || '(anonymous)';
  const where = callFrame.url ? `${ownerOf(callFrame.url)}:${callFrame.lineNumber + 1}` : '';
  return where ? `${name} ${where}` : name;
}

/**
 * Self time per function and per owner (package or file), and total
 * (inclusive) time of the functions in this project's own files (dist/src).
 */
export function summarise(profile, top = 30) {
  const byId = new Map(profile.nodes.map((node) => [node.id, { ...node, callFrame: originalFrame(node.callFrame) }]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const functions = new Map();
  const owners = new Map();
  const inclusive = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    const name = callFrame.functionName || '(anonymous)';
    const key = frameKey(byId.get(id));
    functions.set(key, (functions.get(key) ?? 0) + us);
    const onStack = new Set();
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const node = byId.get(at);
      if (node.callFrame.url.includes('/dist/src/')) onStack.add(frameKey(node));
    }
    for (const frame of onStack) inclusive.set(frame, (inclusive.get(frame) ?? 0) + us);
    const owner = ['(idle)', '(garbage collector)', '(program)'].includes(name) ? name : ownerOf(callFrame.url);
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    total += us;
  }
  const rank = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => ({ key, ms: Math.round(us / 100) / 10, percent: Math.round((1000 * us) / total) / 10 }));
  return { totalMs: Math.round(total / 1000), functions: rank(functions), owners: rank(owners), ownCode: rank(inclusive) };
}

/** Bytes allocated per function (a sampling heap profile, `.heapprofile`), and per request when `requests` is given. */
export function summariseAllocations(profile, top = 30, requests = 0) {
  const functions = new Map();
  let total = 0;
  const walk = (node) => {
    const key = frameKey({ callFrame: originalFrame(node.callFrame) });
    functions.set(key, (functions.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children ?? []) walk(child);
  };
  walk(profile.head);
  const rows = [...functions.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, bytes]) => ({ key, mb: Math.round(bytes / 1e5) / 10, percent: Math.round((1000 * bytes) / total) / 10 }));
  return { totalMb: Math.round(total / 1e6), perRequestKb: requests > 0 ? Math.round(total / requests / 100) / 10 : undefined, functions: rows };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile> [--top N]\n');
    process.exit(2);
  }
  const topIndex = process.argv.indexOf('--top');
  const top = topIndex === -1 ? 30 : Number(process.argv[topIndex + 1]);
  if (file.endsWith('.heapprofile')) {
    const allocations = summariseAllocations(JSON.parse(readFileSync(file, 'utf8')), top);
    const lines = [`total allocated: ${allocations.totalMb} MB`, '', '| MB | % | function (file:line) |', '|---:|---:|---|'];
    for (const row of allocations.functions) lines.push(`| ${row.mb} | ${row.percent} | ${row.key} |`);
    process.stdout.write(lines.join('\n') + '\n');
    process.exit(0);
  }
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')), top);
  const lines = [`total sampled: ${summary.totalMs} ms`, '', '| self ms | % | function (file:line) |', '|---:|---:|---|'];
  for (const row of summary.functions) lines.push(`| ${row.ms} | ${row.percent} | ${row.key} |`);
  lines.push('', '| self ms | % | package / file |', '|---:|---:|---|');
  for (const row of summary.owners) lines.push(`| ${row.ms} | ${row.percent} | ${row.key} |`);
  lines.push('', '| total ms | % | own function, self + callees |', '|---:|---:|---|');
  for (const row of summary.ownCode) lines.push(`| ${row.ms} | ${row.percent} | ${row.key} |`);
  process.stdout.write(lines.join('\n') + '\n');
}
