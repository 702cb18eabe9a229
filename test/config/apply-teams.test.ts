/**
 * The config file's users, teams (with members) and keys naming their team
 * and user, applied on both engines: created once, a later start applying
 * only what the file changed, members the file stops declaring removed, and
 * references that do not fit refused with the entry named.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyConfigFile } from '../../src/config/apply.js';
import { type ConfigFileError, parseConfigText } from '../../src/config/file.js';
import { SecretBox } from '../../src/storage/secrets.js';
import type { Store } from '../../src/storage/types.js';
import { engines, useTestStore } from '../storage/engines.js';

const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

const yaml = (members: string, extraKey = '') =>
  parseConfigText(
    `
users:
  - email: Ada@Example.com
    name: Ada
  - email: grace@example.com
teams:
  - name: research
    description: evaluations
    members:
${members}
keys:
  - name: research-ci
    key: sk-research-ci-secret
    team: research
  - name: ada
    key: sk-ada-secret-0001
    team: research
    user: ada@example.com
${extraKey}`,
    'yaml',
  );

const both = `      - { user: ada@example.com, role: admin }
      - { user: grace@example.com }`;

describe('the config file’s teams and users', () => {
  it('refuses duplicates and a user key without a team, naming the place', () => {
    const problems = (text: string) => {
      try {
        parseConfigText(text, 'yaml');
        return [];
      } catch (error) {
        return (error as ConfigFileError).problems;
      }
    };
    expect(problems('users: [{ email: a@x.io }, { email: A@X.io }]')).toEqual(['users[1].email: duplicate: "a@x.io" is declared twice']);
    expect(problems('teams: [{ name: t, members: [{ user: a@x.io }, { user: a@x.io }] }]')).toEqual(['teams[0].members[1].user: duplicate: "a@x.io" is declared twice in this team']);
    expect(problems('keys: [{ name: k, key: sk-0123456789, user: a@x.io }]')).toEqual(['keys[0].team: a key for a user names one of the user’s teams']);
    expect(problems('users: [{ email: nope }]')).toEqual(['users[0].email: must be an email address']);
    expect(problems('teams: [{ name: t, members: [{ user: a@x.io, role: owner }] }]')[0]).toMatch(/^teams\[0\]\.members\[0\]\.role: /);
  });
});

describe.each(engines)('applying teams and users on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  let secrets: SecretBox;
  beforeAll(async () => {
    if (skip) return;
    store = opened.store;
    secrets = await SecretBox.open(opened.database.dataDir);
  });

  it.skipIf(skip)('creates users, teams, members and owned keys, then changes nothing on a second start', async () => {
    expect(await applyConfigFile(store, secrets, yaml(both), hashKey)).toEqual({ channels: 0, keys: 2, prices: 0, teams: 3, budgets: 0 });
    const team = (await store.teams.getByName('research'))!;
    const ada = (await store.users.getByEmail('ada@example.com'))!;
    expect(team.description).toBe('evaluations');
    expect(ada).toMatchObject({ email: 'ada@example.com', name: 'Ada', status: 'active' });
    expect((await store.teams.members(team.id)).map((member) => member.role).sort()).toEqual(['admin', 'member']);
    expect(await store.keys.getByName('research-ci')).toMatchObject({ teamId: team.id, userId: null });
    expect(await store.keys.getByName('ada')).toMatchObject({ teamId: team.id, userId: ada.id });
    expect(await applyConfigFile(store, secrets, yaml(both), hashKey)).toEqual({ channels: 0, keys: 0, prices: 0, teams: 0, budgets: 0 });
  });

  it.skipIf(skip)('keeps an operator’s change until the file changes it; removes members the file drops', async () => {
    const team = (await store.teams.getByName('research'))!;
    await store.teams.update(team.id, { description: 'changed by an operator' });
    const grace = (await store.users.getByEmail('grace@example.com'))!;
    expect(await applyConfigFile(store, secrets, yaml(both), hashKey)).toMatchObject({ teams: 0 });
    expect((await store.teams.get(team.id))!.description).toBe('changed by an operator');

    expect(await applyConfigFile(store, secrets, yaml('      - { user: ada@example.com, role: admin }'), hashKey)).toMatchObject({ teams: 1 });
    expect(await store.teams.member(team.id, grace.id)).toBeUndefined();
    expect((await store.teams.member(team.id, (await store.users.getByEmail('ada@example.com'))!.id))?.role).toBe('admin');
  });

  it.skipIf(skip)('refuses a key whose user is not in its team, naming the entry', async () => {
    const outsider = yaml(both, '  - { name: grace, key: sk-grace-secret-01, team: research, user: nobody@example.com }');
    await expect(applyConfigFile(store, secrets, outsider, hashKey)).rejects.toThrow('config keys[2] "grace": user: no user with email "nobody@example.com"');
    const unknownTeam = yaml(both, '  - { name: grace, key: sk-grace-secret-01, team: elsewhere }');
    await expect(applyConfigFile(store, secrets, unknownTeam, hashKey)).rejects.toThrow('config keys[2] "grace": team: no team named "elsewhere"');
  });
});
