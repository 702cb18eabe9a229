/**
 * The CLI's changes in the audit log: each command that changes something
 * records one entry as `cli` with the OS user; `audit list` reads them with
 * the API's filters; no secret given on the command line appears.
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { scratchCli } from './scratch-cli.js';

const cli = scratchCli('audit', 'each');

describe('CLI audit', () => {
  it('records every change as the OS user, and lists them filtered', async () => {
    const user = os.userInfo().username;
    await cli(['keys', 'create', '--name', 'ops', '--key', 'sk-cli-KNOWN-SECRET-0001']);
    await cli(['keys', 'disable', 'ops']);
    await cli(['keys', 'enable', 'ops']);
    await cli(['channels', 'add', '--name', 'up', '--type', 'anthropic', '--base-url', 'https://up.example', '--api-key', 'sk-up-RECOGNISABLE-0001', '--models', 'claude-*']);
    await cli(['channels', 'disable', 'up']);
    await cli(['prices', 'set', 'cli-*', '--input', '1', '--output', '2']);
    await cli(['prices', 'delete', 'cli-*']);
    await cli(['admin-key', 'rotate']);
    await cli(['secret-key', 'rotate']);
    await cli(['channels', 'delete', 'up']);

    const all = await cli(['audit', 'list']);
    expect(all.map((entry: { action: string }) => entry.action)).toEqual([
      'channel.delete',
      'secret-key.rotate',
      'admin-key.rotate',
      'price.delete',
      'price.set',
      'channel.update',
      'channel.create',
      'key.enable',
      'key.disable',
      'key.create',
    ]);
    for (const entry of all) expect(entry).toMatchObject({ actorKind: 'cli', actorId: user, actorName: user, requestId: null, clientIp: null });
    expect(all[1]).toMatchObject({ targetKind: 'secret-key', after: { resealed: 1, forgotten: [] } });
    const text = JSON.stringify(all);
    expect(text).not.toContain('sk-cli-KNOWN-SECRET-0001');
    expect(text).not.toContain('sk-up-RECOGNISABLE-0001');

    expect((await cli(['audit', 'list', '--action', 'key.'])).map((entry: { action: string }) => entry.action)).toEqual(['key.enable', 'key.disable', 'key.create']);
    expect(await cli(['audit', 'list', '--actor', 'admin-key'])).toEqual([]);
    expect(await cli(['audit', 'list', '--actor', `cli:${user}`, '--target-kind', 'price', '--limit', '1'])).toMatchObject([{ action: 'price.delete' }]);
    expect(await cli(['audit', 'list', '--until', '2000-01-01T00:00:00Z'])).toEqual([]);
    await expect(cli(['audit', 'list', '--actor', 'robot'])).rejects.toThrow('actor');
  });
});
