/**
 * Serving the web console: index.html and the hashed files from the build
 * folder with a Content-Security-Policy that keeps everything on the
 * gateway's origin, long cache lifetimes only for hashed files, nothing
 * outside the folder, and a plain 404 in the admin shape when the console
 * was never built.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, findConsoleDir, registerConsole } from '../../src/server/console.js';
import { errorShapeFor } from '../../src/server/error-shapes.js';
import { GatewayError } from '../../src/core/errors.js';

let root: string;
let built: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'switchyard-console-'));
  built = path.join(root, 'dist', 'console');
  await mkdir(built, { recursive: true });
  await writeFile(path.join(built, 'index.html'), '<!doctype html><script type="module" src="/console/console-ABC.js"></script>');
  await writeFile(path.join(built, 'console-ABC.js'), 'console.log(1)');
  await writeFile(path.join(built, 'console-DEF.css'), 'body{}');
  await writeFile(path.join(root, 'secret.txt'), 'outside the folder');
  await mkdir(path.join(root, 'dist', 'bundle', 'chunks'), { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function appWith(dir: string | null): Promise<FastifyInstance> {
  const app = Fastify();
  await registerConsole(app, dir);
  return app;
}

describe('the console routes', () => {
  it('serve index.html at /console and /console/, never cached stale, with the CSP', async () => {
    const app = await appWith(built);
    for (const url of ['/console', '/console/', '/console/index.html']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.body).toContain('/console/console-ABC.js');
    }
    await app.close();
  });

  it('serve hashed files with their type and a year-long immutable cache', async () => {
    const app = await appWith(built);
    const script = await app.inject({ url: '/console/console-ABC.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const styles = await app.inject({ url: '/console/console-DEF.css' });
    expect(styles.headers['content-type']).toBe('text/css; charset=utf-8');
    await app.close();
  });

  it('keep scripts, styles and connections on the gateway origin', () => {
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).toContain("img-src 'self' blob: data:");
    expect(CONSOLE_CSP).toContain("media-src 'self' blob:");
    expect(CONSOLE_CSP).not.toMatch(/script-src|unsafe-eval|https?:/);
  });

  it('serve nothing outside the build folder', async () => {
    const app = await appWith(built);
    for (const url of ['/console/../secret.txt', '/console/..%2fsecret.txt', '/console/%2e%2e/%2e%2e/secret.txt', '/console/missing.js']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('outside the folder');
    }
    await app.close();
  });

  it('answer 404 in the admin shape, saying how to build, when the console is not built', async () => {
    const app = await appWith(null);
    for (const url of ['/console', '/console/console-ABC.js']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { type: 'not_found', message: expect.stringContaining('npm run build') } });
    }
    await app.close();
  });

  it('route errors on unknown /console paths to the admin shape', () => {
    expect(errorShapeFor('/console/x', 'GET')(new GatewayError('not_found', 'nope'), 'req-1').body).toEqual({ error: { type: 'not_found', message: 'nope' } });
  });
});

describe('finding the built console', () => {
  it('walks up from the running module to dist/console (source tree and bundle alike)', () => {
    expect(findConsoleDir(path.join(root, 'src', 'server'))).toBe(built);
    expect(findConsoleDir(path.join(root, 'dist', 'bundle'))).toBe(built);
    expect(findConsoleDir(path.join(root, 'dist', 'bundle', 'chunks'))).toBe(built);
  });

  it('finds nothing where no build exists', () => {
    expect(findConsoleDir(path.join(os.tmpdir(), 'no-such-switchyard-place', 'src', 'server'))).toBeUndefined();
  });
});
