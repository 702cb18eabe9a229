/**
 * The bundle's patches of its dependencies (scripts/bundle-patches.mjs)
 * apply to the installed versions, and what they leave behaves as the
 * code they replace: the prefix matcher answers as the compiled one, and
 * neither fastify nor undici loads node:http2 until an HTTP/2 server or
 * origin asks for it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:http2';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types
import { applied, patches } from '../../scripts/bundle-patches.mjs';

type Patch = { name: string; file: RegExp };
const require = createRequire(import.meta.url);
const installed: Record<string, string> = {
  'find-my-way prefix matchers': require.resolve('find-my-way/lib/node.js'),
  'fastify http2 on demand': require.resolve('fastify/lib/server.js'),
  'undici http2 on demand': require.resolve('undici/lib/dispatcher/client-h2.js'),
};
const patched = (name: string): string => {
  const patch = (patches as Patch[]).find((entry) => entry.name === name)!;
  const path = installed[name]!;
  expect(patch.file.test(path)).toBe(true);
  return applied(patch, path, readFileSync(path, 'utf8')) as string;
};

describe("the bundle's dependency patches", () => {
  it('each applies to the installed version, and one whose text is gone fails', () => {
    expect((patches as Patch[]).map((patch) => patch.name).sort()).toEqual(Object.keys(installed).sort());
    for (const name of Object.keys(installed)) expect(patched(name)).not.toBe(readFileSync(installed[name]!, 'utf8'));
    expect(() => applied((patches as Patch[])[0], 'node.js', 'module.exports = {}')).toThrow(/expected its text once, found it 0 times/);
  });

  it('matches a prefix as the compiled matcher does', () => {
    const source = patched('find-my-way prefix matchers');
    const body = /function compilePrefixMatch \(prefix\) \{[\s\S]*?\n\}\n/.exec(source)![0];
    const compilePrefixMatch = new Function('matchSingleCharPrefix', `${body}; return compilePrefixMatch`)(() => true);
    expect(compilePrefixMatch('/v1/messages')('/v1/messages', 0)).toBe(true);
    expect(compilePrefixMatch('messages')('/v1/messages', 4)).toBe(true);
    expect(compilePrefixMatch('messages')('/v1/messagex', 4)).toBe(false);
    expect(compilePrefixMatch('messages')('/v1/mess', 4)).toBe(false);
    expect(compilePrefixMatch('m')('/v1/x', 4)).toBe(true);
  });

  it('leaves node:http2 to an HTTP/2 server or origin, with the HTTP/2 constants of this Node', () => {
    const fastify = patched('fastify http2 on demand');
    expect(fastify).not.toMatch(/^const http2 = require\('node:http2'\)/m);
    expect(fastify).toMatch(/if \(options\.http2\) \{\n\s+const http2 = require\('node:http2'\)/);
    const undici = patched('undici http2 on demand');
    expect(undici).not.toMatch(/^ {2}http2 = require\('node:http2'\)/m);
    expect(undici).toContain(`const HTTP2_HEADER_AUTHORITY = ${JSON.stringify(constants.HTTP2_HEADER_AUTHORITY)}`);
    expect(undici).toContain(`const NGHTTP2_CANCEL = ${constants.NGHTTP2_CANCEL}`);
    expect(undici).toContain('http2.connect(');
  });
});
