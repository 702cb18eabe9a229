/**
 * The CLI's personal admin tokens: the way back in (an owner made with
 * `users add`, then `tokens create`), listed without secrets, revoked; each
 * step in the audit log as the CLI's, never with the secret.
 */
import { describe, expect, it } from 'vitest';
import { scratchCli } from './scratch-cli.js';

const run = scratchCli('tokens', 'all');
const cli = (...args: string[]) => run(args);

describe('CLI admin tokens', () => {
  let secret = '';
  let id = '';

  it('makes an owner and a token for them, its secret printed once', async () => {
    await cli('keys', 'list');
    expect(await cli('users', 'add', '--email', 'Root@Example.com', '--role', 'owner')).toMatchObject({ role: 'owner' });
    const created = await cli('tokens', 'create', '--user', 'root@example.com', '--name', 'recovery', '--expires-days', '7');
    expect(created).toMatchObject({ name: 'recovery', email: 'root@example.com', state: 'active' });
    expect(created.token).toMatch(/^sk-pat-/);
    expect(created.expiresAt).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    [secret, id] = [created.token, created.id];
  });

  it('lists tokens, all or one person’s, without secrets', async () => {
    const all = await cli('tokens', 'list');
    expect(all).toEqual([expect.objectContaining({ id, email: 'root@example.com', prefix: secret.slice(0, 11) })]);
    expect(await cli('tokens', 'list', '--user', 'root@example.com')).toHaveLength(1);
    expect(JSON.stringify(all)).not.toContain(secret);
    await expect(cli('tokens', 'list', '--user', 'nobody@example.com')).rejects.toThrow('no user with email or id "nobody@example.com"');
    await expect(cli('tokens', 'create')).rejects.toThrow('name the user: --user EMAIL or ID');
  });

  it('revokes, and the audit log tells it without the secret', async () => {
    expect(await cli('tokens', 'revoke', id)).toMatchObject({ id, state: 'revoked' });
    await expect(cli('tokens', 'revoke', 'pat_nothing')).rejects.toThrow('no admin token with id "pat_nothing"');
    const audit = await cli('audit', 'list', '--target-kind', 'admin-token');
    expect(audit.map((entry: { action: string; actorKind: string }) => [entry.action, entry.actorKind])).toEqual([
      ['admin-token.revoke', 'cli'],
      ['admin-token.create', 'cli'],
    ]);
    expect(JSON.stringify(audit)).not.toContain(secret);
    expect(JSON.stringify(audit)).not.toMatch(/hash/i);
  });

  it('lists the commands in its help', async () => {
    expect(await cli('help')).toContain('tokens create --user EMAIL|ID [--name NAME] [--expires-days N]');
  });
});
