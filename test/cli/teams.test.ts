import { describe, expect, it } from 'vitest';
import { scratchCli } from './scratch-cli.js';

const run = scratchCli('teams', 'all');
const cli = (...args: string[]) => run(args);

describe('CLI teams and users', () => {
  it('creates a team, a user, a membership and keys for both', async () => {
    // The first command may create the database: `keys list` is one that does (see data-place.ts).
    await cli('keys', 'list');
    expect(await cli('teams', 'add', '--name', 'research', '--description', 'evaluations')).toMatchObject({ name: 'research', members: 0, keys: 0, spend: 0 });
    expect(await cli('users', 'add', '--email', 'Ada@Example.com', '--name', 'Ada')).toMatchObject({ email: 'ada@example.com', teams: [] });
    expect(await cli('teams', 'members', 'add', 'research', '--user', 'ada@example.com', '--role', 'admin')).toMatchObject({ role: 'admin' });
    const key = await cli('keys', 'create', '--name', 'ada', '--team', 'research', '--user', 'ADA@example.com');
    const team = await cli('teams', 'show', 'research');
    expect(key).toMatchObject({ teamId: team.id, userId: expect.stringMatching(/^user_/) });
    expect(team).toMatchObject({ members: 1, keys: 1, activeKeys: 1, memberList: [expect.objectContaining({ email: 'ada@example.com', role: 'admin' })] });
    expect(await cli('users', 'show', 'ada@example.com')).toMatchObject({ keys: 1, teams: [{ name: 'research', role: 'admin' }] });
    expect((await cli('teams', 'list')).map((row: { name: string }) => row.name)).toEqual(['research']);
    expect((await cli('users', 'list')).map((row: { email: string }) => row.email)).toEqual(['ada@example.com']);
    expect(await cli('usage', '--team', 'research')).toEqual([]);
    expect(await cli('usage', '--user', 'ada@example.com')).toEqual([]);
  });

  it('updates, refuses what would orphan active keys, then removes', async () => {
    expect(await cli('teams', 'update', 'research', '--description', 'red-teaming')).toMatchObject({ description: 'red-teaming' });
    expect(await cli('users', 'update', 'ada@example.com', '--status', 'disabled')).toMatchObject({ status: 'disabled' });
    await expect(cli('teams', 'members', 'remove', 'research', '--user', 'ada@example.com')).rejects.toThrow('still holds active keys ("ada")');
    await expect(cli('teams', 'remove', 'research')).rejects.toThrow('team "research" still holds active keys');
    await expect(cli('keys', 'create', '--name', 'ghost', '--user', 'ada@example.com')).rejects.toThrow('teamId: a key for a user names one of the user’s teams');
    await expect(cli('teams', 'show', 'nowhere')).rejects.toThrow('no team named or with id "nowhere"');
    await expect(cli('teams', 'members', 'frobnicate', 'research')).rejects.toThrow('unknown command "teams members frobnicate research"');
    await cli('keys', 'disable', 'ada');
    expect(await cli('teams', 'members', 'remove', 'research', '--user', 'ada@example.com')).toMatchObject({ removed: true });
    expect(await cli('users', 'remove', 'ada@example.com')).toMatchObject({ deleted: true });
    expect(await cli('teams', 'remove', 'research')).toMatchObject({ deleted: true });
    expect(await cli('teams', 'list')).toEqual([]);
  });

  it('lists the commands in its help', async () => {
    const help = await cli('help');
    expect(help).toContain('teams members add TEAM --user EMAIL|ID');
    expect(help).toContain('--team NAME|ID [--user EMAIL|ID]');
  });
});
