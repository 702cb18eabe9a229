import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigFileError, loadConfigFile, parseConfigText } from '../../src/config/file.js';

const yaml = `
channels:
  - name: primary
    type: anthropic
    baseUrl: https://api.example.com/
    apiKey: sk-one
    models: ["*"]
    modelMapping: { claude-fast: claude-haiku }
  - name: pool
    type: openai-chat
    baseUrl: http://127.0.0.1:8000/v1
    apiKey: [sk-a, sk-b]
    models: [gpt-4o, "gpt-4o-*"]
    priority: 2
    weight: 5
    enabled: false
    settings: { systemRole: developer }
keys:
  - name: team
    key: sk-sy-team-secret
    quota: 25.5
    models: [gpt-4o]
    allowIps: [10.0.0.0/8, "::1", 192.168.1.7]
    rpm: 60
    tpm: 100000
    expiresAt: 2030-01-01T00:00:00Z
  - name: ci
    key: sk-sy-ci-secret-value
    expiresAt: 1900000000000
prices:
  "*": { input: 1, output: 2 }
  gpt-4o: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 3 }
limits:
  maxBodyBytes: 1048576
  upstreamTimeoutMs: 30000
  maxAttempts: 3
  cooldownSeconds: 30
  maxUpstreamBodyBytes: 8388608
  maxUpstreamStreamBytes: 67108864
  maxUpstreamEventBytes: 4194304
`;

function problemsOf(text: string, format: 'yaml' | 'json' = 'yaml'): string[] {
  try {
    parseConfigText(text, format, 'test.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigFileError);
    return (error as ConfigFileError).problems;
  }
  throw new Error('expected the config to be rejected');
}

describe('config file parsing', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads YAML with defaults applied', async () => {
    const path = join(dir, 'switchyard.yaml');
    await writeFile(path, yaml);
    const config = loadConfigFile(path);
    expect(config.channels[0]).toEqual({
      name: 'primary',
      type: 'anthropic',
      baseUrl: 'https://api.example.com',
      apiKey: 'sk-one',
      models: ['*'],
      modelMapping: { 'claude-fast': 'claude-haiku' },
      priority: 0,
      weight: 1,
      enabled: true,
    });
    expect(config.channels[1]).toMatchObject({ apiKey: ['sk-a', 'sk-b'], priority: 2, weight: 5, enabled: false });
    expect(config.keys[0].expiresAt).toBe(Date.UTC(2030, 0, 1));
    expect(config.keys[1].expiresAt).toBe(1_900_000_000_000);
    expect(config.prices['gpt-4o']).toEqual({ input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 3 });
    expect(config.limits).toEqual({
      maxBodyBytes: 1048576,
      upstreamTimeoutMs: 30000,
      maxAttempts: 3,
      cooldownSeconds: 30,
      maxUpstreamBodyBytes: 8388608,
      maxUpstreamStreamBytes: 67108864,
      maxUpstreamEventBytes: 4194304,
    });
  });

  it('reads JSON and .yml, and treats an empty file as declaring nothing', async () => {
    const jsonPath = join(dir, 'config.json');
    await writeFile(jsonPath, JSON.stringify({ channels: [{ name: 'sim', type: 'simulator' }] }));
    expect(loadConfigFile(jsonPath)).toEqual({
      channels: [{ name: 'sim', type: 'simulator', priority: 0, weight: 1, enabled: true }],
      users: [],
      teams: [],
      keys: [],
      prices: {},
      budgets: [],
    });
    const ymlPath = join(dir, 'empty.yml');
    await writeFile(ymlPath, '');
    expect(loadConfigFile(ymlPath)).toEqual({ channels: [], users: [], teams: [], keys: [], prices: {}, budgets: [] });
  });

  it('rejects other extensions and unreadable syntax', async () => {
    expect(() => loadConfigFile(join(dir, 'config.toml'))).toThrow(/unsupported extension ".toml"/);
    expect(problemsOf('{"channels": [', 'json')[0]).toMatch(/^not valid JSON/);
    expect(problemsOf('channels: [unclosed')[0]).toMatch(/^not valid YAML/);
  });

  it('names unknown fields, including snake_case spellings', () => {
    expect(problemsOf('channels:\n  - name: a\n    type: anthropic\n    base_url: https://x.example\n')).toEqual([
      'channels[0].base_url (channel "a"): unknown field',
      'channels[0].baseUrl (channel "a"): required for type anthropic (an absolute http(s) URL)',
    ]);
    expect(problemsOf('chanels: []\n')).toEqual(['chanels: unknown field']);
    expect(problemsOf('prices:\n  m: { input: 1, outptu: 2 }\n')).toEqual(['prices.m.outptu: unknown field']);
    expect(problemsOf('limits:\n  timeout: 5\n')).toEqual(['limits.timeout: unknown field']);
  });

  it('names the path of each bad value', () => {
    const problems = problemsOf(`
channels:
  - type: anthropic
  - name: b
    type: openai-chat
    baseUrl: ftp://files.example
    weight: 1.5
    apiKey: 42
keys:
  - name: k
    key: sk-secret-value
    rpm: 0
    allowIps: [not-an-ip, 10.0.0.0/33]
    expiresAt: next tuesday
`);
    expect(problemsOf('channels: {}\n')[0]).toMatch(/^channels: /);
    expect(problems).toContain('channels[0].name: required');
    expect(problems).toContain('channels[1].baseUrl (channel "b"): must be an http(s) URL');
    expect(problems.some((p) => p.startsWith('channels[1].weight (channel "b"): '))).toBe(true);
    expect(problems).toContain('channels[1].apiKey (channel "b"): must be a non-empty string or a list of them');
    expect(problems.some((p) => p.startsWith('keys[0].rpm: '))).toBe(true);
    expect(problems.some((p) => p.startsWith('keys[0].allowIps[0]: must be an IP address'))).toBe(true);
    expect(problems.some((p) => p.startsWith('keys[0].allowIps[1]: must be an IP address'))).toBe(true);
    expect(problems).toContain('keys[0].expiresAt: must be an ISO 8601 date or date-time with a zone (Z or ±hh:mm), or epoch milliseconds');
    expect(problems.join('\n')).not.toContain('sk-secret-value');
  });

  it('reads expiry dates only when their instant is unambiguous', () => {
    const expiry = (value: string) => parseConfigText(`keys: [{ name: k, key: sk-x, expiresAt: "${value}" }]`, 'yaml').keys[0].expiresAt;
    expect(expiry('2030-01-01')).toBe(Date.UTC(2030, 0, 1));
    expect(expiry('2030-01-01T08:00:00+08:00')).toBe(Date.UTC(2030, 0, 1));
    expect(expiry('2030-01-01T00:00:00.500Z')).toBe(Date.UTC(2030, 0, 1) + 500);
    expect(() => expiry('2030-01-01T00:00:00')).toThrow(/keys\[0\]\.expiresAt/);
  });

  it('rejects duplicate names and duplicate key secrets', () => {
    const problems = problemsOf(`
channels:
  - { name: a, type: simulator }
  - { name: a, type: simulator }
keys:
  - { name: k1, key: sk-same-secret }
  - { name: k2, key: sk-same-secret }
  - { name: k1, key: sk-other-secret }
`);
    expect(problems).toEqual(['channels[1].name: duplicate: "a" is declared twice', 'keys[2].name: duplicate: "k1" is declared twice', 'keys[1].key: duplicate: the same secret as an earlier key']);
  });

  it('puts the file name and every problem in the error message', () => {
    expect(() => parseConfigText('keys: [{ name: x }]\nextra: 1\n', 'yaml', '/etc/switchyard.yaml')).toThrow(
      'invalid config file /etc/switchyard.yaml:\n  keys[0].key: required\n  extra: unknown field',
    );
  });
});

describe('channel rules shared with the admin API', () => {
  const problems = (text: string) => {
    try {
      parseConfigText(text, 'yaml', 'test.yaml');
      return [];
    } catch (error) {
      return (error as ConfigFileError).problems;
    }
  };
  it('refuses an unknown type, a non-http base URL and settings the type rejects', () => {
    expect(problems('channels: [{ name: a, type: nope }]')).toEqual([expect.stringMatching(/^channels\[0\]\.type \(channel "a"\): must be one of simulator/)]);
    expect(problems('channels: [{ name: a, type: anthropic, baseUrl: "file:///etc/passwd" }]')).toEqual([expect.stringMatching(/^channels\[0\]\.baseUrl \(channel "a"\):/)]);
    expect(problems('channels: [{ name: a, type: simulator, settings: { latencyMs: -1 } }]')).toEqual(['channels[0].settings.latencyMs (channel "a"): must be a number >= 0']);
    expect(problems('channels: [{ name: a, type: simulator, settings: { latencyMS: 5 } }]')).toEqual([
      'channels[0].settings.latencyMS (channel "a"): unknown setting `latencyMS` for a simulator channel; did you mean `latencyMs`?',
    ]);
    expect(problems('channels: [{ name: a, type: wan, apiKey: k, models: [wan*] }]')).toEqual(['channels[0].baseUrl (channel "a"): required for type wan (an absolute http(s) URL)']);
  });
  it('refuses a file nested deeper than the JSON depth limit', () => {
    expect(problems(`channels: [{ name: a, type: simulator, settings: ${'{a: '.repeat(200)}1${'}'.repeat(200)} }]`)).toEqual([expect.stringMatching(/levels deep/)]);
  });
});
