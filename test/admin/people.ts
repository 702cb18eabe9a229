/**
 * The people the access tests call the admin API as: an owner, an admin, a
 * viewer, a team admin (of team A, no gateway role), and a person with no
 * role (a plain member of team B), each with a personal admin token; and a
 * caller helper that sends any credential.
 */
import { expect } from 'vitest';
import { createAdminToken } from '../../src/admin/admin-tokens.js';
import type { TestGateway } from '../support/gateway.js';

export const CLI_ACTOR = { kind: 'cli', id: 'tests', name: 'tests', requestId: null, clientIp: null } as const;

export type Who = 'adminKey' | 'owner' | 'admin' | 'viewer' | 'teamAdmin' | 'nobody';
export const EVERYONE: readonly Who[] = ['adminKey', 'owner', 'admin', 'viewer', 'teamAdmin', 'nobody'];

export interface People {
  teams: { a: string; b: string };
  users: Record<Exclude<Who, 'adminKey'>, string>;
  secrets: Record<Who, string>;
  tokenIds: Record<Exclude<Who, 'adminKey'>, string>;
}

export type Call = (who: Who | string, method: string, pathname: string, body?: unknown) => Promise<{ status: number; body: any }>;

export function caller(gw: TestGateway, people: () => People): Call {
  return async (who, method, pathname, body) => {
    const secret = (people().secrets as Record<string, string>)[who] ?? who;
    const response = await fetch(`${gw.url}/admin${pathname}`, {
      method,
      headers: { ...(secret ? { authorization: `Bearer ${secret}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

export async function createPeople(gw: TestGateway, tag = ''): Promise<People> {
  const made = async (path: string, body: unknown) => {
    const answer = await gw.admin('POST', path, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as string;
  };
  const teams = { a: await made('/teams', { name: `team a${tag}` }), b: await made('/teams', { name: `team b${tag}` }) };
  const users = {
    owner: await made('/users', { email: `owner${tag}@example.com`, role: 'owner' }),
    admin: await made('/users', { email: `admin${tag}@example.com`, role: 'admin' }),
    viewer: await made('/users', { email: `viewer${tag}@example.com`, role: 'viewer' }),
    teamAdmin: await made('/users', { email: `lead${tag}@example.com` }),
    nobody: await made('/users', { email: `nobody${tag}@example.com` }),
  };
  expect((await gw.admin('PUT', `/teams/${teams.a}/members`, { userId: users.teamAdmin, role: 'admin' })).status).toBe(200);
  expect((await gw.admin('PUT', `/teams/${teams.b}/members`, { userId: users.nobody, role: 'member' })).status).toBe(200);
  const secrets = { adminKey: gw.adminKey } as Record<Who, string>;
  const tokenIds = {} as People['tokenIds'];
  for (const [who, id] of Object.entries(users) as Array<[Exclude<Who, 'adminKey'>, string]>) {
    const user = await gw.gateway.ctx.store.users.get(id);
    const { record, secret } = await createAdminToken(gw.gateway.ctx.store, user!, { name: `${who} laptop` }, CLI_ACTOR);
    secrets[who] = secret;
    tokenIds[who] = record.id;
  }
  return { teams, users, secrets, tokenIds };
}
