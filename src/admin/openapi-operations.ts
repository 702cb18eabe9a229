/**
 * What the admin API's OpenAPI document lists (openapi.ts renders it): every
 * operation with the schemas its input is validated with and its answer
 * described by, and the answers the document names as components.
 */
import { z } from 'zod';
import { channelInputSchema, channelPatchSchema, keyInputSchema, keyPatchSchema } from './service.js';
import { channelTestBody, logListQuery, priceQuoteQuery, seriesQuery, taskListQuery, usageQuery } from './queries.js';
import { memberInputSchema, teamInputSchema, teamPatchSchema, userInputSchema, userPatchSchema } from './team-service.js';
import { priceSchema } from '../config/price-schema.js';
import * as logAnswers from './log-schemas.js';
import * as responseAnswers from './response-schemas.js';
import * as taskAnswers from './task-schemas.js';
import * as auditAnswers from './audit-schemas.js';
import * as teamAnswers from './team-schemas.js';
import * as budgetAnswers from './budget-schemas.js';
import * as tokenAnswers from './token-schemas.js';
import { adminTokenInputSchema } from './admin-tokens.js';
import { budgetInputSchema, budgetPatchSchema } from '../config/budget-schema.js';
import { loginQuery, sessionAnswerSchema } from './sso/schemas.js';

/** Every answer schema the document names, from the files they are declared in. */
const answers = { ...responseAnswers, ...logAnswers, ...taskAnswers, ...teamAnswers, ...auditAnswers, ...budgetAnswers, ...tokenAnswers };

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path, `{id}` style, under /admin. */
  path: string;
  tag: string;
  summary: string;
  query?: z.ZodType;
  body?: z.ZodType;
  status?: number;
  answer?: z.ZodType;
  /** An answer that is not JSON. */
  answerType?: string;
}

const data = <T extends z.ZodType>(row: T) => z.object({ data: z.array(row) });
const keyList = data(answers.keyViewSchema());
const channelList = data(answers.channelViewSchema());

export const ADMIN_OPERATIONS: readonly Operation[] = [
  { method: 'get', path: '/keys', tag: 'keys', summary: 'List keys (spend included, never secrets).', answer: keyList },
  { method: 'post', path: '/keys', tag: 'keys', summary: 'Create a key; the answer carries its secret, once.', body: keyInputSchema(), status: 201, answer: answers.createdKeySchema() },
  { method: 'get', path: '/keys/{id}', tag: 'keys', summary: 'Read a key.', answer: answers.keyViewSchema() },
  { method: 'patch', path: '/keys/{id}', tag: 'keys', summary: 'Change a key’s limits, models, addresses, expiry or status.', body: keyPatchSchema(), answer: answers.changedKeySchema() },
  { method: 'delete', path: '/keys/{id}', tag: 'keys', summary: 'Disable a key (kept for its logs).', answer: answers.keyViewSchema() },
  { method: 'get', path: '/teams', tag: 'teams', summary: 'List teams with their member and key counts and their keys’ spend.', answer: answers.teamListSchema() },
  { method: 'post', path: '/teams', tag: 'teams', summary: 'Create a team.', body: teamInputSchema(), status: 201, answer: answers.teamViewSchema() },
  { method: 'get', path: '/teams/{id}', tag: 'teams', summary: 'Read a team.', answer: answers.teamViewSchema() },
  { method: 'patch', path: '/teams/{id}', tag: 'teams', summary: 'Rename a team or change its description.', body: teamPatchSchema(), answer: answers.teamViewSchema() },
  {
    method: 'delete',
    path: '/teams/{id}',
    tag: 'teams',
    summary: 'Delete a team and its memberships; 409 while it holds active keys (its disabled keys are kept, of no team).',
    answer: answers.deletedSchema(),
  },
  { method: 'get', path: '/teams/{id}/members', tag: 'teams', summary: 'A team’s members and their roles.', answer: answers.memberListSchema() },
  { method: 'put', path: '/teams/{id}/members', tag: 'teams', summary: 'Add a user to the team, or change their role in it.', body: memberInputSchema(), answer: answers.memberViewSchema() },
  {
    method: 'delete',
    path: '/teams/{id}/members/{userId}',
    tag: 'teams',
    summary: 'Remove a member; 409 while they hold active keys of the team (their disabled keys there become the team’s).',
    answer: answers.deletedSchema(),
  },
  { method: 'get', path: '/users', tag: 'users', summary: 'List users with their teams, key counts and their keys’ spend.', answer: answers.userListSchema() },
  { method: 'post', path: '/users', tag: 'users', summary: 'Create a user.', body: userInputSchema(), status: 201, answer: answers.userViewSchema() },
  { method: 'get', path: '/users/{id}', tag: 'users', summary: 'Read a user.', answer: answers.userViewSchema() },
  {
    method: 'patch',
    path: '/users/{id}',
    tag: 'users',
    summary: 'Change a user’s email, name, external id or status (`disabled` disables).',
    body: userPatchSchema(),
    answer: answers.userViewSchema(),
  },
  {
    method: 'delete',
    path: '/users/{id}',
    tag: 'users',
    summary: 'Delete a user and their memberships; 409 while they hold active keys (their disabled keys become their teams’).',
    answer: answers.deletedSchema(),
  },
  { method: 'get', path: '/channels', tag: 'channels', summary: 'List channels with their breaker state.', answer: channelList },
  { method: 'post', path: '/channels', tag: 'channels', summary: 'Create a channel; its type’s settings are checked.', body: channelInputSchema(), status: 201, answer: answers.channelViewSchema() },
  { method: 'get', path: '/channels/{id}', tag: 'channels', summary: 'Read a channel.', answer: answers.channelViewSchema() },
  { method: 'patch', path: '/channels/{id}', tag: 'channels', summary: 'Change a channel (the result must pass its type’s checks).', body: channelPatchSchema(), answer: answers.channelViewSchema() },
  { method: 'delete', path: '/channels/{id}', tag: 'channels', summary: 'Delete a channel.', answer: z.object({ id: z.string(), deleted: z.literal(true) }) },
  { method: 'post', path: '/channels/{id}/health/reset', tag: 'channels', summary: 'Close the channel’s breakers (on every instance, with Redis).', answer: answers.channelViewSchema() },
  {
    method: 'post',
    path: '/channels/{id}/test',
    tag: 'channels',
    summary: 'Send one small chat request to this channel only (not logged, not charged).',
    body: channelTestBody(),
    answer: answers.channelTestSchema(),
  },
  { method: 'get', path: '/channel-types', tag: 'channels', summary: 'The channel types this gateway knows and what each serves.', answer: answers.channelTypesSchema() },
  { method: 'get', path: '/logs', tag: 'logs', summary: 'Request logs, newest first, filtered, a page at a time.', query: logListQuery(), answer: answers.logPageSchema() },
  { method: 'get', path: '/logs/{id}', tag: 'logs', summary: 'One request: its attempts, translation plan and timings.', answer: answers.logDetailSchema() },
  { method: 'get', path: '/usage', tag: 'usage', summary: 'Requests, tokens and cost per key and model.', query: usageQuery(), answer: answers.usageSummarySchema() },
  {
    method: 'get',
    path: '/usage/series',
    tag: 'usage',
    summary: 'Requests, errors, latency quantiles, tokens and cost over time, optionally one series per family, model, channel or key.',
    query: seriesQuery(),
    answer: answers.usageSeriesSchema(),
  },
  { method: 'get', path: '/tasks', tag: 'tasks', summary: 'Image and video tasks, newest first.', query: taskListQuery(), answer: answers.taskPageSchema() },
  { method: 'get', path: '/tasks/{id}', tag: 'tasks', summary: 'One task: what its client sees, its history and its callback deliveries.', answer: answers.taskDetailSchema() },
  { method: 'get', path: '/tasks/{id}/media/{index}', tag: 'tasks', summary: 'A task’s stored image or video.', answerType: 'application/octet-stream' },
  {
    method: 'get',
    path: '/prices',
    tag: 'prices',
    summary: 'The operator’s prices (set here or by the config file), stored ones that no longer parse, and the catalogue in use.',
    answer: answers.pricesSchema(),
  },
  {
    method: 'put',
    path: '/prices/{model}',
    tag: 'prices',
    summary: 'Set or replace one model’s price (the model URL-encoded: a name, `*` or `prefix*`).',
    body: priceSchema(),
    answer: answers.priceViewSchema(),
  },
  { method: 'delete', path: '/prices/{model}', tag: 'prices', summary: 'Delete one model’s price.', answer: answers.priceDeletedSchema() },
  {
    method: 'get',
    path: '/prices/quote',
    tag: 'prices',
    summary: 'The price a request for a model would be charged at, and where it comes from.',
    query: priceQuoteQuery(),
    answer: answers.priceQuoteSchema(),
  },
  { method: 'get', path: '/prices/catalogue', tag: 'prices', summary: 'The built-in catalogue’s models and prices (empty when none is set).', answer: answers.priceCatalogueSchema() },
  {
    method: 'get',
    path: '/audit',
    tag: 'audit',
    summary: 'Administrative changes, newest first: who, when, what, before and after (secrets never included).',
    query: auditAnswers.auditListQuery(),
    answer: answers.auditPageSchema(),
  },
  { method: 'get', path: '/audit/{id}', tag: 'audit', summary: 'One administrative change.', answer: answers.auditEntrySchema() },
  { method: 'get', path: '/auth/session', tag: 'auth', summary: 'The console session’s person (public: 401 with `sso` when signed out).', answer: sessionAnswerSchema() },
  { method: 'get', path: '/auth/oidc/login', tag: 'auth', summary: 'Single sign-on: 302 to the provider (public).', query: loginQuery(), status: 302, answerType: 'text/plain' },
  {
    method: 'get',
    path: '/auth/oidc/callback',
    tag: 'auth',
    summary: 'Single sign-on: the provider’s answer; a session cookie, then 302 to the console (public).',
    status: 302,
    answerType: 'text/plain',
  },
  { method: 'post', path: '/auth/logout', tag: 'auth', summary: 'Ends the console session (public; `x-switchyard-csrf` with the cookie).', status: 204, answerType: 'text/plain' },
  {
    method: 'get',
    path: '/budgets',
    tag: 'budgets',
    summary: 'Budgets, each with what its current period has spent, what remains and when it resets.',
    query: budgetAnswers.budgetListQuery(),
    answer: answers.budgetListSchema(),
  },
  { method: 'post', path: '/budgets', tag: 'budgets', summary: 'Create a budget on a key, a user or a team.', body: budgetInputSchema(), status: 201, answer: answers.budgetViewSchema() },
  { method: 'get', path: '/budgets/{id}', tag: 'budgets', summary: 'Read a budget and its current period.', answer: answers.budgetViewSchema() },
  {
    method: 'patch',
    path: '/budgets/{id}',
    tag: 'budgets',
    summary: 'Change a budget’s limits, period, zone or name (its scope stays).',
    body: budgetPatchSchema(),
    answer: answers.budgetViewSchema(),
  },
  { method: 'delete', path: '/budgets/{id}', tag: 'budgets', summary: 'Delete a budget and its running totals.', answer: answers.budgetDeletedSchema() },
  { method: 'get', path: '/me', tag: 'access', summary: 'Who is calling: how they signed in, their role, the teams they administer and what they may do.', answer: answers.meSchema() },
  { method: 'get', path: '/me/tokens', tag: 'access', summary: 'The caller’s own admin tokens (never their secrets).', answer: answers.adminTokenListSchema() },
  {
    method: 'post',
    path: '/me/tokens',
    tag: 'access',
    summary: 'Create an admin token for the caller; the answer carries its secret, once. The admin key has none (400).',
    body: adminTokenInputSchema(),
    status: 201,
    answer: answers.createdAdminTokenSchema(),
  },
  { method: 'delete', path: '/me/tokens/{id}', tag: 'access', summary: 'Revoke one of the caller’s admin tokens.', answer: answers.adminTokenViewSchema() },
  { method: 'get', path: '/users/{id}/tokens', tag: 'access', summary: 'A person’s admin tokens (never their secrets).', answer: answers.adminTokenListSchema() },
  { method: 'delete', path: '/users/{id}/tokens/{tokenId}', tag: 'access', summary: 'Revoke a person’s admin token.', answer: answers.adminTokenViewSchema() },
  { method: 'get', path: '/settings', tag: 'settings', summary: 'Settings in effect and where each came from; what the config file owns.', answer: answers.settingsSchema() },
  { method: 'get', path: '/openapi.json', tag: 'settings', summary: 'This document.', answerType: 'application/json' },
];

/**
 * The answers by name, as `components.schemas`: an operation answering one
 * refers to it (`$ref`), and the console's types are generated from them
 * (console/src/admin-api.d.ts, `npm run docs:reference`).
 */
export const NAMED_ANSWERS: Readonly<Record<string, z.ZodType>> = {
  AdminError: answers.adminErrorSchema(),
  KeyView: answers.keyViewSchema(),
  KeyList: keyList,
  CreatedKey: answers.createdKeySchema(),
  ChangedKey: answers.changedKeySchema(),
  TeamView: answers.teamViewSchema(),
  TeamList: answers.teamListSchema(),
  MemberView: answers.memberViewSchema(),
  MemberList: answers.memberListSchema(),
  UserView: answers.userViewSchema(),
  UserList: answers.userListSchema(),
  Deleted: answers.deletedSchema(),
  ChannelView: answers.channelViewSchema(),
  ChannelList: channelList,
  ChannelTest: answers.channelTestSchema(),
  ChannelTypes: answers.channelTypesSchema(),
  LogRow: answers.logRowSchema(),
  LogPage: answers.logPageSchema(),
  LogDetail: answers.logDetailSchema(),
  UsageSummary: answers.usageSummarySchema(),
  UsageSeries: answers.usageSeriesSchema(),
  TaskView: answers.taskViewSchema(),
  TaskPage: answers.taskPageSchema(),
  TaskDetail: answers.taskDetailSchema(),
  PriceView: answers.priceViewSchema(),
  PriceList: answers.pricesSchema(),
  PriceQuote: answers.priceQuoteSchema(),
  PriceCatalogue: answers.priceCatalogueSchema(),
  Settings: answers.settingsSchema(),
  AuditEntry: answers.auditEntrySchema(),
  AuditPage: answers.auditPageSchema(),
  BudgetView: answers.budgetViewSchema(),
  BudgetList: answers.budgetListSchema(),
  Me: answers.meSchema(),
  AdminTokenView: answers.adminTokenViewSchema(),
  AdminTokenList: answers.adminTokenListSchema(),
  CreatedAdminToken: answers.createdAdminTokenSchema(),
};
