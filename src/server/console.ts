/**
 * The operator web console at `/console`: the files `npm run build` writes to
 * `dist/console/` (index.html, one hashed script, one hashed stylesheet),
 * read once at start-up and served from memory. The console talks only to the
 * admin API and the public endpoints, so nothing here reads a request's
 * credential. When the files are missing, `/console` says so instead of
 * serving a blank page.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { renderAdminError } from '../admin/errors.js';
import { GatewayError } from '../core/errors.js';
import { useFamilyErrors } from '../http/family-errors.js';

/** Scripts and styles come only from the gateway itself; media only from it or from blob: URLs the console made. */
export const CONSOLE_CSP = ["default-src 'self'", "img-src 'self' blob: data:", "media-src 'self' blob:", "style-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join(
  '; ',
);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

interface ConsoleFile {
  body: Buffer;
  type: string;
}

/**
 * The built console beside the running code: found by walking up from this
 * module to a folder holding `dist/console/index.html`, which is the repository
 * root under `tsx src/main.ts` and the image's /app for `dist/bundle/main.js`.
 */
export function findConsoleDir(from = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (let depth = 0; depth < 5; depth++) {
    const candidate = path.join(dir, 'dist', 'console');
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

/** Every file of the folder by name (flat: the build writes no subfolders). */
export function readConsoleFiles(dir: string | null): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!dir) return files;
  for (const name of readdirSync(dir)) {
    const type = TYPES[path.extname(name)];
    if (type) files.set(name, { body: readFileSync(path.join(dir, name)), type });
  }
  return files;
}

function send(reply: FastifyReply, file: ConsoleFile, cache: string): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', cache)
    .type(file.type)
    .send(file.body);
}

/**
 * Registers `GET /console` and `/console/*` in their own scope (errors in the
 * admin API's shape), serving `dir` (null: not built).
 */
export async function registerConsole(app: FastifyInstance, dir: string | null = findConsoleDir() ?? null): Promise<void> {
  const files = readConsoleFiles(dir);
  await app.register(async (scope) => {
    useFamilyErrors(scope, (error) => renderAdminError(error));
    const index = (reply: FastifyReply) => {
      const page = files.get('index.html');
      if (!page) throw new GatewayError('not_found', 'the console is not built on this gateway: run `npm run build` to build it');
      // The page names the hashed files of the current build: never cached stale.
      return send(reply, page, 'no-cache');
    };
    scope.get('/console', async (_request, reply) => index(reply));
    scope.get<{ Params: { '*': string } }>('/console/*', async (request, reply) => {
      const name = request.params['*'];
      if (name === '' || name === 'index.html') return index(reply);
      const file = files.get(name);
      if (!file) throw new GatewayError('not_found', files.size === 0 ? 'the console is not built on this gateway: run `npm run build` to build it' : `no console file "${name.slice(0, 100)}"`);
      // Every other file's name carries its content hash.
      return send(reply, file, 'public, max-age=31536000, immutable');
    });
  });
}
