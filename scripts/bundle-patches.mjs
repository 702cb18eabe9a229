/**
 * Changes to dependencies' code as the gateway's bundle is built, each for
 * its cold start (issue 37; the measurements in bench/README.md): work
 * done at every start that the code cache cannot hold, or Node modules
 * loaded for what the gateway never does. Each replaces text that must be
 * in the file exactly once: a dependency upgraded under a patch fails the
 * build, naming the patch, so it is looked at again rather than silently
 * dropped.
 */
import { readFileSync } from 'node:fs';
import { constants as http2Constants } from 'node:http2';

/** The HTTP/2 constants undici's client reads at load, written out (the build checks them against this Node's). */
const h2ConstantNames = [
  'HTTP2_HEADER_AUTHORITY',
  'HTTP2_HEADER_METHOD',
  'HTTP2_HEADER_PATH',
  'HTTP2_HEADER_SCHEME',
  'HTTP2_HEADER_CONTENT_LENGTH',
  'HTTP2_HEADER_EXPECT',
  'HTTP2_HEADER_STATUS',
  'HTTP2_HEADER_PROTOCOL',
  'NGHTTP2_REFUSED_STREAM',
  'NGHTTP2_CANCEL',
];

export const patches = [
  {
    // find-my-way compiles a function per static route node's prefix with `new Function` (a chain of
    // charCodeAt tests): about 10 ms a start. The router has matched the prefix's first character
    // when it calls the function, so `startsWith` from there is the same test.
    name: 'find-my-way prefix matchers',
    file: /[\\/]find-my-way[\\/]lib[\\/]node\.js$/,
    replace: [
      [
        /function compilePrefixMatch \(prefix\) \{[\s\S]*?\n\}\n/,
        'function compilePrefixMatch (prefix) {\n  if (prefix.length === 1) return matchSingleCharPrefix\n  return function matchPrefix (path, i) { return path.startsWith(prefix, i) }\n}\n',
      ],
    ],
  },
  {
    // fastify requires node:http2 for its `http2` option, which the gateway never sets: with what
    // it loads in turn, about 14 ms a start on Node 24. Required where the option is read instead.
    name: 'fastify http2 on demand',
    file: /[\\/]fastify[\\/]lib[\\/]server\.js$/,
    replace: [
      ["const http2 = require('node:http2')\n", ''],
      ['  if (options.http2) {\n', "  if (options.http2) {\n    const http2 = require('node:http2')\n"],
    ],
  },
  {
    // undici's HTTP/2 client requires node:http2 when undici loads (at the gateway's first upstream
    // call), for the constants it reads and for `connect`, which only an HTTP/2 origin reaches.
    name: 'undici http2 on demand',
    file: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/,
    replace: [
      [
        /let http2\ntry \{\n {2}http2 = require\('node:http2'\)\n\} catch \{\n.*\n {2}http2 = \{ constants: \{\} \}\n\}\n\nconst \{\n {2}constants: \{\n([\s\S]*?)\n {2}\}\n\} = http2\n/,
        (_whole, names) => {
          const listed = names.split(',').map((name) => name.trim());
          if (listed.join() !== h2ConstantNames.join()) throw new Error(`undici reads other HTTP/2 constants: ${listed.join(', ')}`);
          const constants = h2ConstantNames.map((name) => `const ${name} = ${JSON.stringify(http2Constants[name])}\n`).join('');
          return `let http2Module\nconst http2 = { connect: (...args) => (http2Module ??= require('node:http2')).connect(...args) }\n${constants}`;
        },
      ],
    ],
  },
];

/** `source` (the file at `path`) with `patch` made; throws when its text is not there exactly once. */
export function applied(patch, path, source) {
  let text = source;
  for (const [from, to] of patch.replace) {
    const count = typeof from === 'string' ? text.split(from).length - 1 : (text.match(new RegExp(from.source, `${from.flags}g`)) ?? []).length;
    if (count !== 1) throw new Error(`${path}: the bundle's patch "${patch.name}" expected its text once, found it ${count} times; look at the patch again (scripts/bundle-patches.mjs)`);
    text = typeof to === 'function' ? text.replace(from, to) : text.replace(from, () => to);
  }
  return text;
}

/** The esbuild plugin: each patched file's source, changed as its patch says. */
export const dependencyPatches = {
  name: 'dependency-patches',
  setup(builder) {
    for (const patch of patches) {
      builder.onLoad({ filter: patch.file }, (args) => ({ contents: applied(patch, args.path, readFileSync(args.path, 'utf8')), loader: 'js' }));
    }
  },
};
