/**
 * `npm start` and `npm run cli` as an operator runs them, on a scratch copy of
 * the launcher with a stand-in bundler: SIGTERM sent to the npm process
 * reaches the gateway (no shell or launcher process in between), and sources
 * newer than the bundle are bundled again before anything runs; the
 * `switchyard` command (package.json `bin`) goes through the same launcher.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';

let root: string;

// Stands in for scripts/bundle.mjs: writes bundles that report what they are and which build made them.
const fakeBundler = `
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
const build = readFileSync('src/version.txt', 'utf8').trim();
mkdirSync('dist/bundle', { recursive: true });
writeFileSync('dist/bundle/main.js', \`
process.stdout.write('gateway \${build} pid ' + process.pid + ' args ' + JSON.stringify(process.argv.slice(2)) + '\\\\n');
process.on('SIGTERM', () => { process.stdout.write('gateway got SIGTERM\\\\n'); process.exit(0); });
setInterval(() => {}, 1000);
\`);
writeFileSync('dist/bundle/cli.js', \`process.stdout.write('cli \${build} ' + JSON.stringify(process.argv.slice(2)) + '\\\\n');\`);
`;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'switchyard-launch-'));
  const scripts = JSON.parse(await readFile('package.json', 'utf8')).scripts;
  await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: 'launch-test', private: true, type: 'module', scripts: { start: scripts.start, cli: scripts.cli } }));
  await writeFile(path.join(root, 'package-lock.json'), '{}');
  await mkdir(path.join(root, 'scripts'));
  await mkdir(path.join(root, 'src'));
  await cp('scripts/launch.mjs', path.join(root, 'scripts', 'launch.mjs'));
  await cp('bin', path.join(root, 'bin'), { recursive: true });
  await writeFile(path.join(root, 'scripts', 'bundle.mjs'), fakeBundler);
  await writeFile(path.join(root, 'src', 'version.txt'), 'one');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function npm(args: string[]) {
  const child = spawn('npm', ['--silent', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, output: () => output };
}

async function waitFor(read: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  for (let i = 0; i < 400; i++) {
    const match = pattern.exec(read());
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never saw ${pattern}; output: ${read()}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('delivers SIGTERM sent to `npm start` to the gateway itself', async () => {
  const run = npm(['start']);
  const [, pid] = await waitFor(run.output, /gateway one pid (\d+)/);
  run.child.kill('SIGTERM');
  await waitFor(run.output, /gateway got SIGTERM/);
  await run.exited;
  // The gateway ran in the process npm started: nothing is left behind.
  for (let i = 0; i < 40 && alive(Number(pid)); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(alive(Number(pid))).toBe(false);
}, 30_000);

it('bundles again when a source is newer than the bundle, and only then', async () => {
  const cli = async () => {
    const run = npm(['run', 'cli', '--', 'usage', '--key', 'team-b']);
    expect(await run.exited).toBe(0);
    return run.output();
  };
  const first = await cli();
  expect(first).toContain('no build yet');
  expect(first).toContain('cli one ["usage","--key","team-b"]');

  const second = await cli();
  expect(second).not.toContain('bundling');
  expect(second).toContain('cli one');

  // A `git pull` brings a newer source file.
  const source = path.join(root, 'src', 'version.txt');
  await writeFile(source, 'two');
  const later = new Date(Date.now() + 5_000);
  await utimes(source, later, later);
  const third = await cli();
  expect(third).toContain('sources changed since the last build');
  expect(third).toContain('cli two');
}, 30_000);

it('refuses to run old code when the bundle cannot be built', async () => {
  await writeFile(path.join(root, 'scripts', 'bundle.mjs'), 'process.exit(3);');
  const run = npm(['start']);
  expect(await run.exited).toBe(1);
  expect(run.output()).toContain('refusing to run old code');
}, 30_000);

it('runs the `switchyard` bin through the launcher, rebuilding a stale bundle', async () => {
  const bin = JSON.parse(await readFile('package.json', 'utf8')).bin.switchyard;
  const run = (args: string[]) => {
    const child = spawn(process.execPath, [path.join(root, bin), ...args], { cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    return new Promise<string>((resolve) => child.once('exit', (code) => resolve(`exit ${code}\n${output}`)));
  };
  const first = await run(['keys', 'list']);
  expect(first).toContain('exit 0');
  expect(first).toContain('no build yet');
  expect(first).toContain('cli one ["keys","list"]');
  const source = path.join(root, 'src', 'version.txt');
  await writeFile(source, 'two');
  const later = new Date(Date.now() + 5_000);
  await utimes(source, later, later);
  expect(await run(['help'])).toContain('cli two ["help"]');
}, 30_000);
