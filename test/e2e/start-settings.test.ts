/**
 * Wrong settings as an operator meets them: the built gateway, started as its
 * own process, stops with `switchyard failed to start:` and every wrong
 * variable named (never a credential's value), exit code 1; an unknown
 * SWITCHYARD_* variable is one warning with the name meant; a port in use
 * names SWITCHYARD_PORT. Each rule on its own is checked on the parser.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';
import { settingWarnings } from '../../src/config/env-reader.js';

const run = promisify(execFile);
const outdir = path.join('dist', `bundle-settings-test-${process.pid}`);
let dataDir: string;

beforeAll(async () => {
  await run(process.execPath, ['scripts/bundle.mjs', outdir]);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-settings-'));
}, 60_000);
afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** The bundle started with `env` over a clean environment (no SWITCHYARD_* of the test run's own). */
function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(outdir, 'main.js')], {
    env: { PATH: process.env.PATH, SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = { child, stdout: '', stderr: '', exited: new Promise<number | null>((resolve) => child.once('exit', resolve)) };
  child.stdout.on('data', (chunk) => (started.stdout += chunk));
  child.stderr.on('data', (chunk) => (started.stderr += chunk));
  return started;
}

async function listening(started: ReturnType<typeof start>): Promise<void> {
  for (let i = 0; i < 400 && !/listening on/.test(started.stdout); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(started.stdout).toMatch(/listening on/);
}

describe('a start with wrong settings', () => {
  it('stops with every wrong variable named at once, no credential repeated, exit code 1', async () => {
    const started = start({
      SWITCHYARD_DATABASE_URL: 'mysql://admin:hunter2-password@db/switchyard',
      SWITCHYARD_LOG_LEVEL: 'verbose',
      SWITCHYARD_HOST: '256.1.1.1',
      SWITCHYARD_CONFIG: 'no-such-dir/switchyard.yaml',
      SWITCHYARD_SECRET_KEY: 'replace-with-64-hex-characters',
      SWITCHYARD_ADMIN_KEY: 'abc',
      SWITCHYARD_PUBLIC_URL: 'not-a-url',
      SWITCHYARD_PROT: '9000',
    });
    expect(await started.exited).toBe(1);
    const lines = started.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('switchyard failed to start: 7 settings are wrong:');
    expect(lines.slice(1).map((line) => line.trim())).toEqual([
      'SWITCHYARD_HOST must be an IP address or a host name, got "256.1.1.1"',
      'SWITCHYARD_DATABASE_URL must be a postgres:// or postgresql:// URL, got a mysql:// one',
      'SWITCHYARD_ADMIN_KEY must be at least 16 characters long, got 3',
      `SWITCHYARD_CONFIG names no-such-dir/switchyard.yaml (${path.resolve('no-such-dir/switchyard.yaml')}), which does not exist`,
      'SWITCHYARD_PUBLIC_URL must be an http(s) URL, got "not-a-url"',
      "SWITCHYARD_SECRET_KEY is an example's placeholder, not a secret: generate one (e.g. `openssl rand -hex 32`)",
      'SWITCHYARD_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
      'SWITCHYARD_PROT is not a Switchyard setting and is ignored; did you mean SWITCHYARD_PORT?',
    ]);
    expect(started.stderr).not.toContain('hunter2');
    expect(started.stdout).toBe('');
  }, 20_000);

  it('names SWITCHYARD_PORT when the port is in use', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const started = start({ SWITCHYARD_HOST: '127.0.0.1', SWITCHYARD_PORT: String(port) });
      expect(await started.exited).toBe(1);
      expect(started.stderr).toBe(`switchyard failed to start: port ${port} is in use on 127.0.0.1; set SWITCHYARD_PORT to a free port (or stop what holds it)\n`);
    } finally {
      holder.close();
    }
  }, 20_000);

  it('names SWITCHYARD_HOST when it is no address of this machine', async () => {
    // TEST-NET-1: valid, never an interface of a test machine.
    const started = start({ SWITCHYARD_HOST: '192.0.2.1', SWITCHYARD_PORT: '0' });
    expect(await started.exited).toBe(1);
    expect(started.stderr).toMatch(/^switchyard failed to start: SWITCHYARD_HOST 192\.0\.2\.1 is not an address of this machine/);
  }, 20_000);
});

describe('a start with an unknown SWITCHYARD_* variable', () => {
  it('warns once per unknown name, with the closest known one, and serves', async () => {
    const started = start({ SWITCHYARD_PORT: '0', SWITCHYARD_DATABSE_URL: 'postgres://db/x', SWITCHYARD_FAVOURITE_COLOUR: 'green' });
    try {
      await listening(started);
      const warnings = started.stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; variable: string; closest?: string });
      expect(warnings.map(({ level, msg, variable, closest }) => ({ level, msg, variable, closest }))).toEqual([
        {
          level: 40,
          variable: 'SWITCHYARD_DATABSE_URL',
          closest: 'SWITCHYARD_DATABASE_URL',
          msg: 'SWITCHYARD_DATABSE_URL is not a Switchyard setting and is ignored; did you mean SWITCHYARD_DATABASE_URL?',
        },
        { level: 40, variable: 'SWITCHYARD_FAVOURITE_COLOUR', closest: undefined, msg: 'SWITCHYARD_FAVOURITE_COLOUR is not a Switchyard setting and is ignored (see docs/reference.md)' },
      ]);
      expect(started.stdout).toMatch(/storage: sqlite/);
    } finally {
      started.child.kill('SIGTERM');
    }
    expect(await started.exited).toBe(0);
  }, 20_000);
});

describe('each rule, named by its variable', () => {
  const placeholders = ['replace-with-64-hex-characters', 'sk-admin-replace-me', 'change-me-change-me-change-me-change-me', '<your secret key here, 32 characters>'];

  it.each([
    ['SWITCHYARD_DATABASE_URL', 'mysql://x', 'SWITCHYARD_DATABASE_URL must be a postgres:// or postgresql:// URL, got a mysql:// one'],
    ['SWITCHYARD_DATABASE_URL', 'not a url', 'SWITCHYARD_DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['SWITCHYARD_REDIS_URL', 'http://cache:6379', 'SWITCHYARD_REDIS_URL must be a redis:// or rediss:// URL, got a http:// one'],
    ['SWITCHYARD_LOG_LEVEL', 'verbose', 'SWITCHYARD_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    ['SWITCHYARD_REDIS_OUTAGE', 'ajar', 'SWITCHYARD_REDIS_OUTAGE must be one of closed, open, got "ajar"'],
    ['SWITCHYARD_HOST', '256.1.1.1', 'SWITCHYARD_HOST must be an IP address or a host name, got "256.1.1.1"'],
    ['SWITCHYARD_HOST', 'http://0.0.0.0', 'SWITCHYARD_HOST must be an IP address or a host name, got "http://0.0.0.0"'],
    ['SWITCHYARD_HOST', '0.0.0.0:8080', 'SWITCHYARD_HOST must be an IP address or a host name, got "0.0.0.0:8080"'],
    ['SWITCHYARD_ADMIN_KEY', 'abc', 'SWITCHYARD_ADMIN_KEY must be at least 16 characters long, got 3'],
    ['SWITCHYARD_PUBLIC_URL', 'not-a-url', 'SWITCHYARD_PUBLIC_URL must be an http(s) URL, got "not-a-url"'],
    ['SWITCHYARD_PUBLIC_URL', 'ftp://files.example', 'SWITCHYARD_PUBLIC_URL must be an http(s) URL, got "ftp://files.example"'],
    ['SWITCHYARD_NOTIFY_HOOK', 'hooks.internal/done', 'SWITCHYARD_NOTIFY_HOOK must be an http(s) URL, got "hooks.internal/done"'],
    ['SWITCHYARD_TRUSTED_PROXIES', '10.0.0.1, nginx', 'SWITCHYARD_TRUSTED_PROXIES must list IP addresses or CIDR ranges such as 10.0.0.0/8, got "nginx"'],
    ['SWITCHYARD_DATABASE_SCHEMA', 'tenant-a', 'SWITCHYARD_DATABASE_SCHEMA must be a PostgreSQL schema name: letters, digits and _, not starting with a digit, at most 63 characters, got "tenant-a"'],
    ['SWITCHYARD_PORT', '70000', 'SWITCHYARD_PORT must be at most 65535, got 70000'],
  ])('%s=%s', (name, value, message) => {
    expect(() => settingsFromEnv({ [name]: value })).toThrow(message);
  });

  it('refuses an example placeholder for either key, without repeating the value', () => {
    for (const value of placeholders) {
      for (const name of ['SWITCHYARD_SECRET_KEY', 'SWITCHYARD_ADMIN_KEY']) {
        expect(() => settingsFromEnv({ [name]: value })).toThrow(`${name} is an example's placeholder, not a secret: generate one`);
      }
    }
    expect(() => settingsFromEnv({ SWITCHYARD_ADMIN_KEY: 'short-secret' })).not.toThrow(/short-secret/);
  });

  it('starts with a short secret key, which may already seal data, and warns about it', () => {
    expect(() => settingsFromEnv({ SWITCHYARD_SECRET_KEY: 'too-short-secret' })).not.toThrow();
    expect(settingWarnings({ SWITCHYARD_SECRET_KEY: 'too-short-secret' })).toEqual([
      'SWITCHYARD_SECRET_KEY is shorter than 32 characters; replace it with a generated one (`openssl rand -hex 32`, then `switchyard secret-key rotate --new-key`)',
    ]);
    expect(settingWarnings({ SWITCHYARD_SECRET_KEY: 'a'.repeat(32) })).toEqual([]);
  });

  it('names SWITCHYARD_CONFIG and the path of a missing, unreadable or misnamed file', async () => {
    const folder = path.join(dataDir, 'a-folder.yaml');
    await mkdir(folder, { recursive: true });
    expect(() => settingsFromEnv({ SWITCHYARD_CONFIG: folder })).toThrow(`SWITCHYARD_CONFIG names ${folder}, which is not a file`);
    expect(() => settingsFromEnv({ SWITCHYARD_CONFIG: path.join(dataDir, 'none.yaml') })).toThrow(`SWITCHYARD_CONFIG names ${path.join(dataDir, 'none.yaml')}, which does not exist`);
    expect(() => settingsFromEnv({ SWITCHYARD_CONFIG: 'package.json' })).not.toThrow();
    expect(() => settingsFromEnv({ SWITCHYARD_CONFIG: 'README.md' })).toThrow(/SWITCHYARD_CONFIG names README\.md \(.*\): use a \.yaml, \.yml or \.json file/);
  });

  it('accepts what the documentation shows', () => {
    const good = {
      SWITCHYARD_HOST: '0.0.0.0',
      SWITCHYARD_DATABASE_URL: 'postgresql://user:password@postgres:5432/switchyard',
      SWITCHYARD_REDIS_URL: 'rediss://cache.internal:6380',
      SWITCHYARD_SECRET_KEY: 'a'.repeat(20) + '0123456789ab',
      SWITCHYARD_ADMIN_KEY: 'sk-admin-0123456789abcdef',
      SWITCHYARD_PUBLIC_URL: 'https://gateway.example.com/',
      SWITCHYARD_LOG_LEVEL: 'debug',
      SWITCHYARD_TRUSTED_PROXIES: '10.0.0.5, fd00::/8',
    };
    expect(settingsFromEnv(good)).toMatchObject({ host: '0.0.0.0', publicUrl: 'https://gateway.example.com', trustedProxies: ['10.0.0.5', 'fd00::/8'] });
    for (const host of ['::', '::1', 'localhost', 'gateway-1', 'project_gateway_1', 'gw.internal.example.']) expect(settingsFromEnv({ SWITCHYARD_HOST: host }).host).toBe(host);
  });
});
