/**
 * The README's examples as written: the quick start's curl (run by a shell
 * against a gateway on the simulator, only its address changed), the client
 * snippet (the very text of examples/messages.mjs), and every config-file
 * snippet (parsed by the gateway's own config parser). The CLI examples are
 * run by test/cli/cli.test.ts.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/file.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const run = promisify(execFile);
let readme: string;
let gw: TestGateway;

beforeAll(async () => {
  readme = await readFile('README.md', 'utf8');
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

/** The fenced blocks of one language, in order. */
function blocks(language: string): string[] {
  return [...readme.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]);
}

describe('README', () => {
  it('quick start: the curl answers after SWITCHYARD_KEY is set as shown', async () => {
    const script = blocks('sh').find((block) => block.includes('curl http://127.0.0.1:8080/v1/messages'));
    expect(script).toBeDefined();
    expect(script).toMatch(/^export SWITCHYARD_KEY=/);
    // The first line sets a placeholder; the test sets the real key instead and points at its gateway.
    const body = script!.split('\n').slice(1).join('\n').replaceAll('http://127.0.0.1:8080', gw.url);
    const { stdout } = await run('sh', ['-c', `set -e\n${body}`], { env: { PATH: process.env.PATH ?? '', SWITCHYARD_KEY: gw.clientKey } });
    const message = JSON.parse(stdout);
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'any-model' });
    expect(message.content[0].text).toMatch(/^You said: "Hello"\./);
  });

  it('the client snippet is examples/messages.mjs, word for word', async () => {
    const example = await readFile('examples/messages.mjs', 'utf8');
    expect(blocks('js')).toContain(example);
  });

  it('names every example file it points at, and each exists', async () => {
    const linked = [...readme.matchAll(/\]\((examples\/[^)]+)\)/g)].map((match) => match[1]);
    expect(linked.length).toBeGreaterThanOrEqual(7);
    for (const file of linked) await expect(readFile(file)).resolves.toBeDefined();
  });

  it("every config-file snippet parses with the gateway's config parser", () => {
    const yamlBlocks = blocks('yaml');
    expect(yamlBlocks.length).toBeGreaterThanOrEqual(1);
    for (const block of yamlBlocks) expect(() => parseConfigText(block, 'yaml', 'README')).not.toThrow();
    // Inline snippets such as `prices: { "ig_*": { perCall: 0.1 } }`, which may wrap across lines.
    const inline = [...readme.replace(/\n/g, ' ').matchAll(/`((?:prices|taskTimeouts|limits|videos|channels|keys): [^`]+)`/g)].map((match) => match[1]);
    expect(inline.length).toBeGreaterThanOrEqual(3);
    for (const snippet of inline) expect(() => parseConfigText(snippet, 'yaml', snippet)).not.toThrow();
  });
});
