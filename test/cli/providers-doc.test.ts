/**
 * docs/providers.md as written: every CLI line runs (in order, on a scratch
 * data directory, the provider keys standing in as dummies), and every curl
 * is a request the gateway accepts (sent to a gateway whose simulator serves
 * every model, since the providers themselves are not reachable from tests).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { CHAT_PRESET_NAMES } from '../../src/upstreams/openai-chat/presets.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const run = promisify(execFile);
let doc: string;
let root: string;
let gw: TestGateway;

beforeAll(async () => {
  doc = await readFile('docs/providers.md', 'utf8');
  root = await mkdtemp(path.join(os.tmpdir(), 'switchyard-providers-'));
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
  await rm(root, { recursive: true, force: true });
});

/** A dummy for a `$VAR` of the doc: a service-account key where the doc's variable holds one (the vertex type checks its shape when written), else a plain key. */
const dummyOf = (variable: string) =>
  variable === '$VERTEX_SERVICE_ACCOUNT_KEY' ? JSON.stringify({ type: 'service_account', client_email: 'doc@example.iam.gserviceaccount.com', private_key: 'dummy' }) : 'sk-dummy-provider-key';

/** Shell words of a simple command line: single- and double-quoted words, `$VAR` replaced by a dummy. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((match) => (match[1] ?? match[2] ?? match[3]).replace(/\$[A-Z_]+/g, dummyOf));
}

function shBlocks(): string[] {
  return [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

describe('docs/providers.md', () => {
  it('every CLI line runs as written', async () => {
    const lines = shBlocks()
      .flatMap((block) => block.split('\n'))
      .filter((line) => line.startsWith('npm run cli -- '));
    expect(lines.filter((line) => line.includes('channels add')).length).toBe(14 + CHAT_PRESET_NAMES.length);
    const env = { SWITCHYARD_DATA_DIR: path.join(root, 'data') };
    await runCli(['--data-dir', env.SWITCHYARD_DATA_DIR, 'keys', 'list'], { env, stdout: () => undefined, stderr: () => undefined });
    const added: Record<string, any> = {};
    const presets: Record<string, any> = {};
    for (const line of lines) {
      let out = '';
      await runCli(shellWords(line.slice('npm run cli -- '.length)), { env, stdout: (text) => (out += text), stderr: () => undefined });
      if (line.includes('channels add')) {
        const channel = JSON.parse(out);
        if (channel.settings.preset) presets[channel.settings.preset] = channel;
        else added[channel.type] = channel;
      }
    }
    expect(Object.keys(added).sort()).toEqual(['anthropic', 'azure-openai', 'bedrock', 'gemini', 'ig-proxy', 'openai-chat', 'openai-responses', 'openai-videos', 'simulator', 'vertex', 'wan']);
    expect(added['openai-chat']).toMatchObject({ modelMapping: { 'claude-sonnet-4-5': 'qwen3-32b' }, apiKeyCount: 0 });
    expect(added['ig-proxy'].settings).toMatchObject({ pathPrefix: '/mj' });
    // The last anthropic channel added: one in front of a proxy that refuses some betas.
    expect(added.anthropic.settings).toEqual({ betas: { deny: ['context-management-*', 'advanced-tool-use-*'] } });
    expect(added['openai-responses'].models).toEqual(['gpt-*', 'o3*', 'o4*']);
    // One walkthrough per preset, each channel with no base URL of its own: the preset supplies it.
    expect(Object.keys(presets).sort()).toEqual([...CHAT_PRESET_NAMES].sort());
    for (const channel of Object.values(presets)) expect(channel).toMatchObject({ type: 'openai-chat', baseUrl: '' });
  });

  it('every curl is a request the gateway accepts', async () => {
    const curls = shBlocks().filter((block) => /curl "?http:\/\/127\.0\.0\.1:8080/.test(block));
    expect(curls.length).toBe(9);
    for (const block of curls) {
      // -f turns an HTTP error into a failed command; the doc's address becomes the test gateway's.
      const script = block.replaceAll('curl http://127.0.0.1:8080', `curl -sS -f ${gw.url}`).replaceAll('curl "http://127.0.0.1:8080', `curl -sS -f "${gw.url}`);
      const { stdout } = await run('sh', ['-c', `set -e\n${script}`], { env: { PATH: process.env.PATH ?? '', SWITCHYARD_KEY: gw.clientKey } });
      expect(stdout.length, block).toBeGreaterThan(0);
    }
  });
});
