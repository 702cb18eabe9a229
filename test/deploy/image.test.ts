/**
 * The deployment files, checked without a container engine: the image's
 * start command and health check are read from the Dockerfile and run here
 * against the bundle the build makes; compose.yaml and the Kubernetes
 * manifests are parsed for what scale-out needs (shared services and secret,
 * probes on routes that exist, a non-root user, the data volume, the trusted
 * load balancer) and for values the gateway's start accepts or refuses.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { settingsFromEnv } from '../../src/config/env.js';

const run = promisify(execFile);
const outdir = path.join('dist', `bundle-image-test-${process.pid}`);
let dataDir: string;

interface Dockerfile {
  stages: number;
  env: Record<string, string>;
  cmd: string[];
  healthcheck: string[];
  user: string;
  volumes: string[];
}

/** The final stage of the Dockerfile: its ENV, CMD, HEALTHCHECK, USER and VOLUME. */
async function readDockerfile(): Promise<Dockerfile> {
  const text = (await readFile('Dockerfile', 'utf8')).replace(/\\\n\s*/g, ' ');
  const lines = text.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
  const stages = lines.filter((line) => line.startsWith('FROM ')).length;
  const last = lines.slice(lines.findLastIndex((line) => line.startsWith('FROM ')));
  const env: Record<string, string> = {};
  for (const line of last.filter((l) => l.startsWith('ENV '))) {
    for (const [, name, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[name] = value;
  }
  const json = (prefix: string) => JSON.parse(last.find((l) => l.startsWith(prefix))!.slice(last.find((l) => l.startsWith(prefix))!.indexOf('['))) as string[];
  return {
    stages,
    env,
    cmd: json('CMD '),
    healthcheck: json('HEALTHCHECK '),
    user: last
      .find((l) => l.startsWith('USER '))!
      .slice(5)
      .trim(),
    volumes: json('VOLUME '),
  };
}

beforeAll(async () => {
  await run(process.execPath, ['scripts/bundle.mjs', outdir]);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-image-'));
}, 60_000);
afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** What the Dockerfile's `node-flags` line writes for a Node line: none on 20 and 22, the young generation's bounds on the others. */
function nodeFlagsFor(major: number, dockerfile: string): string[] {
  const line = /^RUN case "\$\{NODE_VERSION%%\.\*\}" in (\S+)\) : > \/app\/node-flags ;; \*\) echo "([^"]+)" > \/app\/node-flags ;; esac$/m.exec(dockerfile);
  expect(line).not.toBeNull();
  return line![1]!.split('|').includes(String(major)) ? [] : line![2]!.split(' ');
}

describe('the Dockerfile', () => {
  it('is multi-stage, runs as a non-root user, keeps its data on a volume', async () => {
    const image = await readDockerfile();
    expect(image.stages).toBeGreaterThanOrEqual(2);
    expect(image.user).not.toMatch(/^(root|0)$/);
    expect(image.volumes).toContain(image.env.SWITCHYARD_DATA_DIR);
    expect(image.env.SWITCHYARD_HOST).toBe('0.0.0.0');
    // glibc's fixed trim threshold: what the image saves in RSS (bench/README.md); the start below runs under it.
    expect(image.env.MALLOC_TRIM_THRESHOLD_).toBe('131072');
  });

  it('runs Node 24 and later with the young generation between 8 and 16 MB, Node 20 and 22 without flags', async () => {
    const dockerfile = await readFile('Dockerfile', 'utf8');
    expect(nodeFlagsFor(24, dockerfile)).toEqual(['--max-semi-space-size=16', '--min-semi-space-size=8']);
    expect(nodeFlagsFor(26, dockerfile)).toEqual(['--max-semi-space-size=16', '--min-semi-space-size=8']);
    expect(nodeFlagsFor(20, dockerfile)).toEqual([]);
    expect(nodeFlagsFor(22, dockerfile)).toEqual([]);
  });

  it('builds and runs on one Node line, 24 unless asked', async () => {
    const text = await readFile('Dockerfile', 'utf8');
    expect(text).toMatch(/^ARG NODE_VERSION=24$/m);
    const bases = [...text.matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
    // The build stage makes the V8 code cache; another Node in the final stage would refuse it.
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) expect(base).toBe(`node:\${NODE_VERSION}-bookworm-slim`);
  });

  it('starts with its own command, and its health check passes against it and fails where no gateway answers', async () => {
    const image = await readDockerfile();
    // The image runs the bundle `npm run build` writes (dist/bundle/main.js); here, a scratch copy of it.
    // Node with the flags the build wrote for its line (the young generation's bounds from Node 24 on, docs/decisions.md).
    expect(image.cmd).toEqual(['sh', '-c', 'exec node $(cat /app/node-flags) dist/bundle/main.js']);
    const flags = nodeFlagsFor(Number(process.versions.node.split('.')[0]), await readFile('Dockerfile', 'utf8'));
    const args = [...flags, 'dist/bundle/main.js'];
    const env = { ...process.env, ...image.env, SWITCHYARD_HOST: '127.0.0.1', SWITCHYARD_PORT: '0', SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_LOG_LEVEL: 'info' };
    const child = spawn(
      process.execPath,
      args.map((arg) => arg.replace('dist/bundle', outdir)),
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const healthcheck = (port: string) =>
      run(process.execPath, image.healthcheck.slice(1), { env: { ...process.env, SWITCHYARD_PORT: port } }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? 1,
      );
    try {
      let port: string | undefined;
      for (let i = 0; i < 400 && port === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        port = /listening (?:on|at) http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      }
      expect(port, output).toBeDefined();
      expect(image.healthcheck[0]).toBe('node');
      expect(await healthcheck(port!)).toBe(0);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(await healthcheck('1')).toBe(1);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 30_000);
});

describe('compose.yaml', () => {
  it('runs two gateway instances behind a load balancer on one PostgreSQL and one Redis, with a shared secret key and media', async () => {
    const compose = parse(await readFile('compose.yaml', 'utf8'), { merge: true });
    const services = compose.services as Record<string, { environment?: Record<string, string>; volumes?: string[]; image?: string }>;
    const gateways = Object.entries(services).filter(([name]) => name.startsWith('gateway-'));
    expect(gateways).toHaveLength(2);
    for (const [, gateway] of gateways) {
      expect(gateway.environment!.SWITCHYARD_DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:/);
      expect(gateway.environment!.SWITCHYARD_REDIS_URL).toBe('redis://redis:6379');
      expect(gateway.environment!.SWITCHYARD_SECRET_KEY).toContain('SWITCHYARD_SECRET_KEY');
      expect(gateway.volumes).toContain('media:/data');
    }
    expect(services.postgres.image).toMatch(/^postgres:/);
    expect(services.redis.image).toMatch(/^redis:/);
    const nginx = await readFile('deploy/nginx.conf', 'utf8');
    for (const [name] of gateways) expect(nginx).toContain(`server ${name}:8080`);
    expect(nginx).toContain('proxy_buffering off');
    // The Responses WebSocket's handshake reaches the gateways.
    expect(nginx).toContain('proxy_set_header Upgrade $http_upgrade;');
    expect(nginx).toContain('proxy_set_header Connection $connection_upgrade;');
  });

  it('trusts its load balancer, and only it, for X-Forwarded-For; nginx appends the client and overwrites host and scheme', async () => {
    const compose = parse(await readFile('compose.yaml', 'utf8'), { merge: true });
    const services = compose.services as Record<string, { environment?: Record<string, string>; networks?: Record<string, { ipv4_address?: string }> }>;
    const lbAddress = services.lb.networks!.default.ipv4_address;
    expect(lbAddress).toBeDefined();
    for (const [, gateway] of Object.entries(services).filter(([name]) => name.startsWith('gateway-'))) {
      expect(gateway.environment!.SWITCHYARD_TRUSTED_PROXIES).toBe(lbAddress);
    }
    const nginx = await readFile('deploy/nginx.conf', 'utf8');
    expect(nginx).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(nginx).toContain('proxy_set_header X-Forwarded-Host $host;');
    expect(nginx).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
  });

  it('starts with the values its comment says to generate', async () => {
    const compose = parse(await readFile('compose.yaml', 'utf8'), { merge: true });
    const generated: Record<string, string> = {
      // As the comment's `openssl rand -hex 32` and `sk-admin-$(openssl rand -hex 16)`.
      SWITCHYARD_SECRET_KEY: randomBytes(32).toString('hex'),
      SWITCHYARD_ADMIN_KEY: `sk-admin-${randomBytes(16).toString('hex')}`,
    };
    const header = (await readFile('compose.yaml', 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .join('\n');
    expect(header).toContain('SWITCHYARD_SECRET_KEY=$(openssl rand -hex 32)');
    expect(header).toContain('SWITCHYARD_ADMIN_KEY=sk-admin-$(openssl rand -hex 16)');
    // Compose's ${NAME:?…} and ${NAME:-default}, filled as compose fills them.
    const fill = (value: string) => value.replace(/\$\{(\w+):[?-]([^}]*)\}/g, (_, name: string, rest: string) => generated[name] ?? rest);
    const environment = Object.fromEntries(Object.entries(compose.services['gateway-1'].environment as Record<string, string>).map(([name, value]) => [name, fill(value)]));
    expect(() => settingsFromEnv(environment)).not.toThrow();
  });
});

describe('the Kubernetes manifests', () => {
  it('probe /readyz and /healthz, run as non-root, and take the shared values from a Secret', async () => {
    const documents = parseAllDocuments(await readFile('deploy/kubernetes/deployment.yaml', 'utf8')).map((doc) => doc.toJS());
    const deployment = documents.find((doc) => doc.kind === 'Deployment');
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    const fromSecret = Object.fromEntries(
      container.env
        .filter((entry: { valueFrom?: unknown }) => entry.valueFrom)
        .map((entry: { name: string; valueFrom: { secretKeyRef: { name: string } } }) => [entry.name, entry.valueFrom.secretKeyRef.name]),
    );
    expect(fromSecret).toMatchObject({ SWITCHYARD_SECRET_KEY: 'switchyard', SWITCHYARD_DATABASE_URL: 'switchyard', SWITCHYARD_REDIS_URL: 'switchyard' });
    const env = Object.fromEntries(container.env.filter((entry: { value?: string }) => entry.value).map((entry: { name: string; value: string }) => [entry.name, entry.value]));
    expect(container.volumeMounts.map((mount: { mountPath: string }) => mount.mountPath)).toContain(env.SWITCHYARD_DATA_DIR);
    // The pod is killed only after the gateway's own drain could finish.
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(Number(env.SWITCHYARD_SHUTDOWN_GRACE_MS));
  });

  it('ship a Secret example whose placeholders stop the start, saying to generate real values', async () => {
    const secret = parse(await readFile('deploy/kubernetes/secret.example.yaml', 'utf8'));
    const values = secret.stringData as Record<string, string>;
    const start = () => settingsFromEnv({ SWITCHYARD_SECRET_KEY: values['secret-key'], SWITCHYARD_ADMIN_KEY: values['admin-key'], SWITCHYARD_DATABASE_URL: values['database-url'] });
    expect(start).toThrow(/SWITCHYARD_SECRET_KEY is an example's placeholder, not a secret: generate one/);
    expect(start).toThrow(/SWITCHYARD_ADMIN_KEY is an example's placeholder/);
  });
});
