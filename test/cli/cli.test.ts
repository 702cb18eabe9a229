/**
 * The admin CLI: arguments in any order, every README example as written,
 * enabling, disabling and deleting, and the data directory it uses (named
 * on stderr, never a new empty one by accident).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';

let root: string;
let dataDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'switchyard-cli-'));
  dataDir = path.join(root, 'data');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Runs one command in-process; resolves to parsed stdout and raw stderr. */
async function cli(args: string[], env: NodeJS.ProcessEnv = { SWITCHYARD_DATA_DIR: dataDir }) {
  let stdout = '';
  let stderr = '';
  await runCli(args, { env, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { out: stdout.startsWith('usage:') ? stdout : JSON.parse(stdout), stderr };
}

/** Splits a README command line the way a POSIX shell would for these simple cases (single quotes only). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2]);
}

describe('CLI', () => {
  it('runs every README example as written', async () => {
    const readme = await readFile('README.md', 'utf8');
    const examples = readme.split('\n').filter((line) => line.startsWith('npm run cli -- '));
    expect(examples.length).toBeGreaterThanOrEqual(5);
    expect(examples).toContain('npm run cli -- usage --key team-b');
    await cli(['--data-dir', dataDir, 'keys', 'list']);
    const outputs = new Map<string, unknown>();
    for (const line of examples) {
      const args = shellWords(line.slice('npm run cli -- '.length));
      outputs.set(line, (await cli(args)).out);
    }
    const added = [...outputs].find(([line]) => line.includes('channels add'))?.[1];
    expect(added).toMatchObject({ name: 'vllm', models: ['*'], apiKeyCount: 1 });
    expect((await cli(['keys', 'list'])).out[0]).toMatchObject({ name: 'team-b', quota: 20, rpm: 60 });
  });

  it('accepts options before, between and after the command words', async () => {
    await cli(['--data-dir', dataDir, 'keys', 'create', '--name', 'team-b']);
    expect((await cli(['usage', '--key', 'team-b'])).out).toEqual([]);
    expect((await cli(['--key', 'team-b', 'usage'])).out).toEqual([]);
    expect((await cli(['keys', '--name', 'second', 'create'])).out).toMatchObject({ name: 'second' });
    await expect(cli(['usage', '--key', 'nobody'])).rejects.toThrow('no key named or with id "nobody"');
    await expect(cli(['keys', 'frobnicate'])).rejects.toThrow('unknown command "keys frobnicate"');
    await expect(cli(['keys', 'list', '--nope'])).rejects.toThrow(/--nope/);
    expect((await cli(['--help'])).out).toContain('channels delete NAME|ID');
  });

  it('disables, enables and deletes channels and keys by name or id', async () => {
    const { out: channel } = await cli(['--data-dir', dataDir, 'channels', 'add', '--name', 'up', '--type', 'openai-chat', '--base-url', 'http://127.0.0.1:8000/v1', '--models', 'a']);
    expect((await cli(['channels', 'disable', 'up'])).out).toMatchObject({ enabled: false });
    expect((await cli(['channels', 'enable', channel.id])).out).toMatchObject({ enabled: true });
    expect((await cli(['channels', 'delete', 'up'])).out).toEqual({ id: channel.id, deleted: true });
    expect((await cli(['channels', 'list'])).out).toEqual([]);
    await expect(cli(['channels', 'delete', 'up'])).rejects.toThrow('no channel named or with id "up"');
    await expect(cli(['channels', 'delete'])).rejects.toThrow('NAME or ID');
    // Settings are checked by the type's schema, as through the admin API and the config file.
    await expect(cli(['channels', 'add', '--name', 'typo', '--type', 'openai-chat', '--base-url', 'http://127.0.0.1:8000/v1', '--models', 'a', '--settings', '{"streamUsag":false}'])).rejects.toThrow(
      'settings.streamUsag: unknown setting `streamUsag` for an openai-chat channel; did you mean `streamUsage`?',
    );

    await cli(['keys', 'create', '--name', 'k']);
    expect((await cli(['keys', 'disable', 'k'])).out).toMatchObject({ status: 'disabled' });
    expect((await cli(['keys', 'enable', 'k'])).out).toMatchObject({ status: 'active' });
  });

  it('sets, lists and deletes prices, checked by the schema the admin API uses', async () => {
    const { out: set } = await cli(['--data-dir', dataDir, 'prices', 'set', 'claude-*', '--input', '3', '--output', '15', '--cache-read', '0.3', '--cache-write-1h', '6', '--reasoning', '20']);
    expect(set).toMatchObject({ model: 'claude-*', source: 'admin', configOwned: false, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite1h: 6, reasoning: 20 } });
    const tiers = { input: 1.25, output: 10, tiers: [{ above: 200000, input: 2.5, output: 15 }] };
    expect((await cli(['prices', 'set', 'gemini-2.5-pro', '--json', JSON.stringify(tiers)])).out.price).toEqual(tiers);
    expect((await cli(['prices', 'set', '*', '--per-call', '0.01'])).out.price).toEqual({ perCall: 0.01 });
    // Set again: replaced, not merged.
    expect((await cli(['prices', 'set', 'claude-*', '--input', '4'])).out.price).toEqual({ input: 4 });

    const { out: listed } = await cli(['prices', 'list']);
    expect(listed.problems).toEqual([]);
    expect(listed.data.map((row: { model: string }) => row.model)).toEqual(['*', 'claude-*', 'gemini-2.5-pro']);

    expect((await cli(['prices', 'delete', '*'])).out).toEqual({ model: '*', deleted: true });
    await expect(cli(['prices', 'delete', '*'])).rejects.toThrow('no price set for "*"');
    await expect(cli(['prices', 'set', 'm', '--input', 'cheap'])).rejects.toThrow(/^input: /);
    await expect(cli(['prices', 'set', 'm', '--input=-1'])).rejects.toThrow(/^input: /);
    await expect(cli(['prices', 'set', 'm', '--json', '{"input": 1, "cached": 2}'])).rejects.toThrow('cached');
    await expect(cli(['prices', 'set', 'm', '--json', '{'])).rejects.toThrow('--json: not valid JSON');
    await expect(cli(['prices', 'set', 'm', '--json', '{}', '--input', '1'])).rejects.toThrow('not both');
    await expect(cli(['prices', 'set', 'm'])).rejects.toThrow('give the price');
    await expect(cli(['prices', 'set', 'a*b', '--input', '1'])).rejects.toThrow('model: may hold `*` only at its end');
    await expect(cli(['prices', 'set', '--input', '1'])).rejects.toThrow('name the model');
    expect((await cli(['prices', 'list'])).out.data).toHaveLength(2);
  });

  it('names the database it uses on stderr', async () => {
    const { stderr } = await cli(['--data-dir', dataDir, 'keys', 'list']);
    expect(stderr).toBe(`switchyard: using SQLite ${path.join(dataDir, 'switchyard.db')}\n`);
    expect(existsSync(path.join(dataDir, 'switchyard.db'))).toBe(true);
  });

  it('refuses to create a new empty database unless --data-dir asks for one', async () => {
    await expect(cli(['keys', 'list'])).rejects.toThrow(`data directory ${dataDir} does not exist`);
    expect(existsSync(dataDir)).toBe(false);
    await cli(['keys', 'list', '--data-dir', dataDir]);
    expect(existsSync(dataDir)).toBe(true);
    // Once it exists, the environment alone is enough.
    expect((await cli(['keys', 'list'])).out).toEqual([]);
  });
});
