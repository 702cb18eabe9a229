/**
 * Renders docs/admin-api.md: each admin route, its body fields (from the zod
 * schemas the admin API validates with) and an example. The examples are
 * data (ADMIN_EXAMPLES) so a test can send every one of them to a gateway.
 */
import { channelInputSchema, channelPatchSchema, keyInputSchema, keyPatchSchema } from '../../src/admin/service.js';
import { memberInputSchema, teamInputSchema, teamPatchSchema, userInputSchema, userPatchSchema } from '../../src/admin/team-service.js';
import { budgetInputSchema } from '../../src/config/budget-schema.js';
import { priceSchema } from '../../src/config/price-schema.js';
import { rowsTable, schemaRows } from './schema-rows.js';

export interface AdminExample {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `{key}`, `{channel}`, `{team}` and `{user}` (in the path or the body) stand for the id an earlier example created. */
  path: string;
  body?: Record<string, unknown>;
  status: number;
}

export const ADMIN_EXAMPLES = {
  createKey: {
    method: 'POST',
    path: '/admin/keys',
    body: { name: 'team-b', quota: 20, models: ['claude-*', 'ig_*'], rpm: 60, tpm: 100000, expiresAt: '2030-01-01T00:00:00Z' },
    status: 201,
  },
  listKeys: { method: 'GET', path: '/admin/keys', status: 200 },
  getKey: { method: 'GET', path: '/admin/keys/{key}', status: 200 },
  patchKey: { method: 'PATCH', path: '/admin/keys/{key}', body: { quota: 50, rpm: null }, status: 200 },
  disableKey: { method: 'DELETE', path: '/admin/keys/{key}', status: 200 },
  createTeam: { method: 'POST', path: '/admin/teams', body: { name: 'research', description: 'Model evaluation' }, status: 201 },
  createUser: { method: 'POST', path: '/admin/users', body: { email: 'Ada@example.com', name: 'Ada Lovelace' }, status: 201 },
  addMember: { method: 'PUT', path: '/admin/teams/{team}/members', body: { userId: '{user}', role: 'admin' }, status: 200 },
  createUserKey: { method: 'POST', path: '/admin/keys', body: { name: 'ada-research', teamId: '{team}', userId: '{user}', quota: 10 }, status: 201 },
  listTeams: { method: 'GET', path: '/admin/teams', status: 200 },
  getTeam: { method: 'GET', path: '/admin/teams/{team}', status: 200 },
  patchTeam: { method: 'PATCH', path: '/admin/teams/{team}', body: { description: 'Model evaluation and red-teaming' }, status: 200 },
  listMembers: { method: 'GET', path: '/admin/teams/{team}/members', status: 200 },
  removeMemberRefused: { method: 'DELETE', path: '/admin/teams/{team}/members/{user}', status: 409 },
  listUsers: { method: 'GET', path: '/admin/users', status: 200 },
  getUser: { method: 'GET', path: '/admin/users/{user}', status: 200 },
  disableUser: { method: 'PATCH', path: '/admin/users/{user}', body: { status: 'disabled' }, status: 200 },
  createChannel: {
    method: 'POST',
    path: '/admin/channels',
    body: { name: 'anthropic-main', type: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: ['sk-ant-one', 'sk-ant-two'], models: ['claude-*'], priority: 10 },
    status: 201,
  },
  listChannels: { method: 'GET', path: '/admin/channels', status: 200 },
  getChannel: { method: 'GET', path: '/admin/channels/{channel}', status: 200 },
  patchChannel: { method: 'PATCH', path: '/admin/channels/{channel}', body: { enabled: false, weight: 2 }, status: 200 },
  resetChannelHealth: { method: 'POST', path: '/admin/channels/{channel}/health/reset', status: 200 },
  deleteChannel: { method: 'DELETE', path: '/admin/channels/{channel}', status: 200 },
  logs: { method: 'GET', path: '/admin/logs?model=claude-sonnet-4-5&status=error&since=2026-01-01T00:00:00Z&limit=20', status: 200 },
  usage: { method: 'GET', path: '/admin/usage?since=1767225600000', status: 200 },
  teamUsage: { method: 'GET', path: '/admin/usage?teamId={team}&since=1767225600000', status: 200 },
  usageSeries: { method: 'GET', path: '/admin/usage/series?by=model&step=3600000&since=1767225600000&until=1767312000000', status: 200 },
  tasks: { method: 'GET', path: '/admin/tasks?family=images&status=SUCCESS&limit=20', status: 200 },
  channelTypes: { method: 'GET', path: '/admin/channel-types', status: 200 },
  setPrice: {
    method: 'PUT',
    path: '/admin/prices/claude-sonnet-%2A',
    body: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6, tiers: [{ above: 200000, input: 6, output: 22.5 }] },
    status: 200,
  },
  prices: { method: 'GET', path: '/admin/prices', status: 200 },
  quotePrice: { method: 'GET', path: '/admin/prices/quote?model=claude-sonnet-4-5', status: 200 },
  priceCatalogue: { method: 'GET', path: '/admin/prices/catalogue', status: 200 },
  deletePrice: { method: 'DELETE', path: '/admin/prices/claude-sonnet-%2A', status: 200 },
  settings: { method: 'GET', path: '/admin/settings', status: 200 },
  audit: { method: 'GET', path: '/admin/audit?action=channel.&since=2026-01-01T00:00:00Z&limit=20', status: 200 },
  createBudget: {
    method: 'POST',
    path: '/admin/budgets',
    body: { scopeKind: 'key', scopeId: '{key}', name: 'team-b monthly', amountUsd: 500, tokens: 20000000, period: 'monthly', timeZone: 'Europe/Berlin' },
    status: 201,
  },
  listBudgets: { method: 'GET', path: '/admin/budgets?scopeKind=key', status: 200 },
  me: { method: 'GET', path: '/admin/me', status: 200 },
  userTokens: { method: 'GET', path: '/admin/users/{user}/tokens', status: 200 },
  openApi: { method: 'GET', path: '/admin/openapi.json', status: 200 },
} satisfies Record<string, AdminExample>;

/** What a key, a channel and a price look like in answers (checked against real answers by the test). */
export const KEY_FIELDS = [
  'id',
  'name',
  'keyPrefix',
  'status',
  'quota',
  'used',
  'remaining',
  'models',
  'allowIps',
  'rpm',
  'tpm',
  'expiresAt',
  'strictTranslation',
  'teamId',
  'userId',
  'createdAt',
  'updatedAt',
];
export const TEAM_FIELDS = ['id', 'name', 'description', 'members', 'keys', 'activeKeys', 'spend', 'createdAt', 'updatedAt'];
export const USER_FIELDS = ['id', 'email', 'name', 'status', 'externalId', 'role', 'teams', 'keys', 'activeKeys', 'spend', 'createdAt', 'updatedAt'];
export const PRICE_FIELDS = ['model', 'price', 'source', 'updatedAt', 'configOwned'];
export const CHANNEL_FIELDS = [
  'id',
  'name',
  'type',
  'baseUrl',
  'models',
  'modelMapping',
  'priority',
  'weight',
  'status',
  'enabled',
  'settings',
  'apiKeyCount',
  'createdAt',
  'updatedAt',
  'health',
  'problem',
  'ignoredSettings',
];

const codeList = (names: string[]) => names.map((name) => `\`${name}\``).join(', ');

function curl(example: AdminExample): string {
  const ids = (text: string) => text.replace('{key}', '$KEY_ID').replace('{channel}', '$CHANNEL_ID').replace('{team}', '$TEAM_ID').replace('{user}', '$USER_ID');
  const url = `http://127.0.0.1:8080${ids(example.path)}`;
  const lines = [`curl -X ${example.method} "${url}" \\`, `  -H "Authorization: Bearer $ADMIN_KEY"`];
  if (example.body) {
    lines[1] += ' -H "content-type: application/json" \\';
    // A shell variable inside single quotes is not expanded: the quotes close around it.
    lines.push(`  -d '${ids(JSON.stringify(example.body)).replace(/\$(\w+)/g, '\'"$$$1"\'')}'`);
  }
  return ['```sh', ...lines, '```'].join('\n');
}

function fieldNames(schema: Parameters<typeof schemaRows>[0]): string {
  return schemaRows(schema)
    .map((row) => `\`${row.path}\``)
    .join(', ');
}

export function renderAdminApi(): string {
  const e = ADMIN_EXAMPLES;
  return `<!-- Generated by \`npm run docs:reference\` from src/admin/service.ts and scripts/reference/admin-api.ts; edit those, not this file. -->

# Admin API

Under \`/admin\`, with the admin key or a personal admin token in
\`Authorization: Bearer <admin key>\` (or \`x-admin-key\`); see "Access"
below for who may call what. Bodies are JSON; unknown fields are refused with a 400
naming them. Errors: \`{"error": {"type", "message", "param"?}}\` (400 invalid, 401 no
or wrong admin key or token, 403 a permission the caller lacks, 404 unknown id, 409 a name already taken, or a delete that
would leave active keys without their team or user). The CLI
(\`npm run cli -- help\`) runs the same operations on the same storage. A lost
admin key: \`npm run cli -- admin-key rotate\` (see the README, "Admin").

Every example below is sent to a gateway by \`test/config/admin-api.test.ts\`.

## Keys

### \`POST /admin/keys\`: create a key

Answers 201 with the key record and \`key\`, the secret, shown this once
(only its hash is stored).

${rowsTable(schemaRows(keyInputSchema()))}

${curl(e.createKey)}

### \`GET /admin/keys\`, \`GET /admin/keys/{id}\`

\`{"data": [key, ...]}\` or one key: ${codeList(KEY_FIELDS)}; never the
secret. Times are epoch milliseconds. Spend this instance still holds in
memory is flushed first.

${curl(e.listKeys)}

${curl(e.getKey)}

### \`PATCH /admin/keys/{id}\`: change a key

Any subset of ${fieldNames(keyPatchSchema())}; \`null\` clears a limit.
Answers the changed key.

${curl(e.patchKey)}

### \`DELETE /admin/keys/{id}\`: disable a key

Sets \`status\` to \`disabled\` (usage history stays); \`PATCH\` with
\`{"status": "active"}\` enables it again.

${curl(e.disableKey)}

## Teams and users

A team owns keys and has members; a user belongs to teams. A key is created
for a team (\`teamId\`) or for a user in one of their teams (\`teamId\` and
\`userId\`), and every request log row and usage sum carries the team and
user its key had when the request was made, so usage, logs and spend roll
up by key, user and team (the \`teamId\` and \`userId\` filters, \`by=team\`
and \`by=user\`, the \`teams\` and \`users\` of \`GET /admin/usage\`). Deleting a
team or a user, or removing a member, is refused with a 409 while it would
leave an active key without its owner: disable the keys, or move them to
another team with \`PATCH /admin/keys/{id}\`, first.

### \`POST /admin/teams\`: create a team

Answers 201 with the team: ${codeList(TEAM_FIELDS)} (\`spend\`: what the
team's keys have spent so far, USD; \`members\`, \`keys\`, \`activeKeys\`:
counts).

${rowsTable(schemaRows(teamInputSchema()))}

${curl(e.createTeam)}

### \`GET /admin/teams\`, \`GET /admin/teams/{id}\`, \`PATCH /admin/teams/{id}\`

\`{"data": [team, ...]}\` or one team. \`PATCH\` takes any subset of
${fieldNames(teamPatchSchema())}.

${curl(e.listTeams)}

${curl(e.patchTeam)}

### \`DELETE /admin/teams/{id}\`: delete a team

Deletes the team and its memberships; 409 while an active key belongs to it.
Its disabled keys are kept, belonging to no team (their log rows keep the
team).

### \`GET /admin/teams/{id}/members\`, \`PUT /admin/teams/{id}/members\`

The members (\`teamId\`, \`userId\`, \`role\`, \`email\`, \`name\`,
\`createdAt\`); \`PUT\` adds a user, or changes their role:

${rowsTable(schemaRows(memberInputSchema()))}

${curl(e.addMember)}

### \`DELETE /admin/teams/{id}/members/{userId}\`: remove a member

409 while the member holds an active key of the team; their disabled keys
there become the team's.

${curl(e.removeMemberRefused)}

### \`POST /admin/users\`: create a user

Answers 201 with the user: ${codeList(USER_FIELDS)} (\`teams\`: each team
with its \`teamId\`, \`name\` and the user's \`role\`). The email is stored
lower-cased; two spellings of one address are one user.

${rowsTable(schemaRows(userInputSchema()))}

${curl(e.createUser)}

### \`GET /admin/users\`, \`GET /admin/users/{id}\`, \`PATCH /admin/users/{id}\`, \`DELETE /admin/users/{id}\`

\`PATCH\` takes any subset of ${fieldNames(userPatchSchema())};
\`{"status": "disabled"}\` disables the user (kept, with their keys and
memberships). \`DELETE\` deletes the user and their memberships; 409 while they
hold an active key (their disabled keys become their teams').

${curl(e.getUser)}

${curl(e.disableUser)}

## Channels

### \`POST /admin/channels\`: add a channel

Answers 201 with the channel record (\`apiKeyCount\` instead of the
credentials). The gateway routes to it at once. Per-type settings and a
walkthrough for each upstream type: [providers.md](providers.md).

${rowsTable(schemaRows(channelInputSchema()))}

${curl(e.createChannel)}

### \`GET /admin/channels\`, \`GET /admin/channels/{id}\`

\`{"data": [channel, ...]}\` or one channel: ${codeList(CHANNEL_FIELDS)}.

${curl(e.listChannels)}

${curl(e.getChannel)}

\`health\` is the channel's circuit breaker as this instance sees it
(openings made by other instances included, with Redis): \`state\`
(\`closed\`, \`open\`, \`half_open\`), \`openUntil\`, \`reason\`,
\`consecutiveFailures\`, \`recentOutcomes\`, \`recentFailures\`,
\`recentErrors\` (\`at\`, \`message\`), and \`keys\`: per upstream key, its
\`index\`, a \`fingerprint\` (never the key), \`state\`, \`openUntil\`,
\`reason\`.

\`problem\` says why a configured channel serves nothing, as this
instance sees it: credentials that cannot be opened (the secret key is
missing or is another one, or the sealed value was altered), or settings
its type rejects; \`null\` when the channel is usable. Such a channel is
named once in the log and listed under \`brokenChannels\` in \`/readyz\`.
\`ignoredSettings\` lists what a serving channel keeps in its settings but
the gateway ignores (a key its type does not know, stored before settings
were checked), one sentence each; a channel written now cannot have any.

### \`POST /admin/channels/{id}/health/reset\`: close a channel's breakers

Closes the channel's breaker and its keys' (on every instance, with Redis);
answers the channel record.

${curl(e.resetChannelHealth)}

### \`PATCH /admin/channels/{id}\`: change a channel

Any subset of ${fieldNames(channelPatchSchema())}. A new \`apiKey\`
replaces all credentials.

${curl(e.patchChannel)}

### \`DELETE /admin/channels/{id}\`: delete a channel

Answers \`{"id", "deleted": true}\`.

${curl(e.deleteChannel)}

### \`POST /admin/channels/{id}/test\`: test a channel

Sends one small chat request (\`{"model"?}\`; default: the channel's first
exact model name) to this channel only, enabled or not, outside routing,
failover and the breakers; nothing is logged or charged. Answers
\`{"ok", "status", "latencyMs", "model", "upstreamModel", "error", "sample"}\`.
A channel type that serves only tasks answers 400.

### \`GET /admin/channel-types\`

\`{"data": [{"type", "serves", "needs", "defaultModels", "settings"}]}\`:
every channel type, what it serves (\`chat\`, \`images\`, \`videos\`), what
a channel of it must declare (\`needs\`: \`baseUrl\`, \`credentials\`, and
\`baseUrlFrom\` where a setting supplies the base URL instead: \`preset\` for
\`openai-chat\`), the
models it serves when it lists none (\`defaultModels\`, where it has them),
and the JSON Schema of its \`settings\` (every key with its description and
default; \`additionalProperties: false\`, as any other key is refused).

${curl(e.channelTypes)}

## Logs and usage

Query parameters are given at most once; an unknown one is a 400 naming it.
Times are epoch milliseconds or ISO 8601 date-times.

### \`GET /admin/logs\`

Request logs, newest first: \`{"data": [row, ...], "hasMore", "nextCursor"}\`;
pass \`nextCursor\` back as \`cursor\` for the next page. Filters:
\`since\`, \`until\`, \`keyId\`, \`teamId\`, \`userId\`, \`model\`, \`channelId\`, \`family\`,
\`status\` (one status such as \`429\`, a class such as \`5xx\`, or
\`error\` for 400-599), \`limit\` (default 100, at most 1000). Each row
carries \`cost\` (what the client was charged), \`upstreamCost\` (what the
serving channel's provider charged, by its cost table; null when it has no
price for the model) and \`attempts\`: every channel tried, in order, with \`status\`,
\`errorKind\`, \`message\` (why it failed), \`at\` and \`durationMs\`.

${curl(e.logs)}

### \`GET /admin/logs/{id}\`

One request: the row (with \`teamId\` and \`userId\`, the key's owners when it was made), plus \`keyName\`, \`teamName\`, \`userEmail\`, \`channelName\`,
\`translationPlan\` (\`mapped\` and \`ignored\` fields) and \`timings\`
(\`totalMs\`, \`firstByteMs\`, \`queueMs\`: before the first channel was
tried, \`upstreamMs\`: the attempts together). Never a secret or a prompt.

### \`GET /admin/usage\`

Requests, tokens and cost per key and model, and spend beside upstream
cost per channel: \`{"data": [row, ...], "channels": [row, ...], "totals"}\`.
Each \`data\` row: \`keyId\`, \`model\`, \`requests\`, the token counts,
\`cost\` (what clients were charged), \`upstreamCost\`, \`costedRequests\` and
\`costedSpend\`. Each \`channels\` row (\`channelId\`, \`channelName\`; most
spend first) and \`totals\`: \`requests\`, \`cost\`, \`upstreamCost\` (what the
providers charged, by each channel's cost table, the \`costs\` setting),
\`costedRequests\` (requests whose upstream cost is known), \`costedSpend\`
(what clients were charged for those), \`margin\` (\`costedSpend −
upstreamCost\`; null when no request's upstream cost is known) and
\`uncostedRequests\` (requests a channel served that the margin leaves out: no
cost table, or no price in it for the model; requests no channel served cost
nothing upstream and are not counted). \`teams\` and \`users\` (most spend
first): \`teamId\` and \`teamName\`, or \`userId\` and \`email\` (null: requests
made with keys of none), \`requests\`, \`inputTokens\`, \`outputTokens\`, \`cost\`.
Query parameters: \`keyId\`, \`teamId\`, \`userId\`, \`since\`, \`until\`.

${curl(e.usage)}

${curl(e.teamUsage)}

### \`GET /admin/usage/series\`

Usage over time, read from per-minute and per-hour sums kept beside the log (a step of whole hours reads the hours; so a week's
chart reads thousands of rows, not millions): \`{"since", "until", "step",
"by", "totals", "series": [{"group", "label", "totals", "points": [...]}]}\`.
Each point, each series' totals and the overall totals: \`requests\`, \`errors\`, \`rateLimited\`, \`failovers\`,
\`inputTokens\`, \`outputTokens\`, \`cost\`, \`upstreamCost\`, \`costedRequests\`, \`costedSpend\`, \`p50Ms\`, \`p95Ms\`,
\`ttftP50Ms\` (quantiles from latency histograms, interpolated within their
bucket). Parameters: \`since\` (default 24 hours before \`until\`),
\`until\` (default now), \`step\` (ms, whole minutes; default about 100
points), \`by\` (\`none\`, \`family\`, \`model\`, \`channel\`, \`key\`, \`team\`, \`user\`),
\`top\` (with \`by\`: the busiest groups that get a series each, default 10, at
most 50; the rest are summed into one series, \`(other)\`, so an answer stays
small however many keys there are), and the filters \`family\`, \`model\`,
\`channelId\`, \`keyId\`, \`teamId\`, \`userId\`.

${curl(e.usageSeries)}

## Tasks

### \`GET /admin/tasks\`, \`GET /admin/tasks/{id}\`

Image and video tasks, newest first (\`family\`, \`status\`, \`keyId\`,
\`limit\`, \`cursor\`), each with \`status\`, \`progress\`, \`prompt\`,
\`cost\`, times, \`pollCount\`, \`buttons\` and \`media\` (links to
\`GET /admin/tasks/{id}/media/{index}\`, which needs the admin key). One task
adds \`clientView\` (what its client sees), \`history\` and \`deliveries\`
(callbacks with their attempts; addresses without their query string).

${curl(e.tasks)}

## Prices

USD per million tokens (input, output, cache reads and writes, one-hour
cache writes, reasoning), per call (\`perCall\`, image actions) or per second
of video (\`perSecond\`), by model name, \`*\` or \`prefix*\` (an exact name
wins, then the longest prefix). The same schema as the config file's
\`prices\` and the CLI's \`prices set\`. A model the operator priced
nowhere falls back on the built-in catalogue, when one is set, else costs
nothing. A change is charged from the next request on, on every instance (at
once with the change feed, else within \`SWITCHYARD_REFRESH_MS\`).

### \`PUT /admin/prices/{model}\`: set a model's price

Sets or replaces the price of \`{model}\`, URL-encoded (\`claude-%2A\` for
\`claude-*\`, \`%2A\` for \`*\`, \`%2F\` for a \`/\` in a name). Answers the
price: ${codeList(PRICE_FIELDS)}. Set here, its \`source\` is \`admin\`; the
config file sets it again only when its own price for that model changes.

${rowsTable(schemaRows(priceSchema()))}

${curl(e.setPrice)}

### \`GET /admin/prices\`

\`{"data": [price, ...], "problems", "catalogue"}\`: every price set, with
\`source\` (\`admin\` or \`config\`) and \`configOwned\` (the config file
declares the model's price); \`problems\`, stored prices that no longer parse
(edited by hand; \`{"model", "problem"}\`), which are skipped until fixed while
the others apply; \`catalogue\`, the built-in catalogue's \`package\`,
\`version\` and \`date\`, or null.

${curl(e.prices)}

### \`GET /admin/prices/quote\`

What a request for \`model\` would be charged at on this instance, and why:
\`{"model", "upstreamModel", "quote": {"price", "source", "matched"}}\`,
\`source\` being \`admin\`, \`config\` or \`catalogue\` and \`matched\` the name
or pattern that priced it; \`quote\` is null for a model priced nowhere.
\`upstreamModel\` (optional): the name a channel sends upstream, which the
catalogue is asked for too.

${curl(e.quotePrice)}

### \`GET /admin/prices/catalogue\`

The built-in catalogue: \`{"about": {"package", "version", "date"}, "data":
[{"model", "provider", "name", "price"}, ...]}\`; \`{"about": null, "data": []}\`
when none is set.

${curl(e.priceCatalogue)}

### \`DELETE /admin/prices/{model}\`

Answers \`{"model", "deleted": true}\`; 404 when no price is set for it. A
config-owned price deleted here stays deleted until the file changes it.

${curl(e.deletePrice)}

## Configuration, read-only

\`GET /admin/settings\` (each variable's value in effect and whether it came
from the environment; credentials show only \`(set)\`, addresses lose user,
password and query; and \`configOwned\`, the fields the config file declares
per channel and key, and the models whose price it declares).

${curl(e.settings)}

## Audit log

Every change made through this API, the CLI or the config file is recorded
once, in the transaction that makes it (a refused or failed change records
nothing): who (\`actorKind\`: \`admin-key\`, \`cli\` with the OS user as
\`actorId\`, \`config-file\` with its path, \`token\` with the admin token's id and its person's email as \`actorName\`, \`user\` for a console session), when (\`at\`), the admin
request (\`requestId\`, \`clientIp\`), the \`action\` (\`key.create\`,
\`key.update\`, \`key.disable\`, \`key.enable\`, \`channel.create\`,
\`channel.update\`, \`channel.delete\`, \`channel.health-reset\`,
\`price.set\`, \`price.delete\`, \`admin-key.rotate\`,
\`secret-key.rotate\`), the target (\`targetKind\`, \`targetId\`,
\`targetName\`) and its public view \`before\` and \`after\`, as this API
shows it: never a key's secret or hash, never a channel's credentials (only
\`apiKeyCount\`, and \`apiKeysReplaced\` on an update). Entries older than
\`SWITCHYARD_AUDIT_RETENTION_DAYS\` (default 365) are deleted.

### \`GET /admin/audit\`, \`GET /admin/audit/{id}\`

Entries newest first: \`{"data": [entry, ...], "hasMore", "nextCursor"}\`,
paged like the logs. Filters: \`actor\` (a kind, or \`kind:id\` such as
\`cli:alice\`), \`action\` (a prefix: \`key.\` for every key change),
\`targetKind\`, \`targetId\`, \`since\`, \`until\`, \`limit\`,
\`cursor\`. The CLI's \`audit list\` takes the same filters.

${curl(e.audit)}

## Budgets

A budget limits a key, a user or a team (\`scopeKind\`, \`scopeId\`) to
an amount in USD and/or a number of tokens (input plus output) per period:
\`daily\`, \`weekly\` (ISO weeks, from Monday), \`monthly\` (from the
first), each starting at midnight in its \`timeZone\`, or \`lifetime\`.
Every request is checked against every budget of its key, its key's user
and its key's team, together with the key's \`quota\`, before it is
routed; one that would start with a budget spent is refused in its family's
quota shape (\`quota_exhausted\`: HTTP 403, the family's error body), naming the
budget and when it resets. Periods have their own running totals, so a new
period starts from nothing. Answers show the current period: \`spent\`
(\`usd\`, \`tokens\`), \`remaining\` (null for a limit not set),
\`periodStart\` and \`resetsAt\` (ISO 8601; null for \`lifetime\`).

### \`GET/POST /admin/budgets\`, \`GET/PATCH/DELETE /admin/budgets/{id}\`

The list takes \`scopeKind\` and \`scopeId\` filters. A change takes any
field but the scope; at least one of \`amountUsd\` and \`tokens\` stays
set. Each change is recorded in the audit log (\`budget.create\`,
\`budget.update\`, \`budget.delete\`). A budget with an \`alertUrl\`
gets a POST there when its period reaches 50, 80 and 100 % of a limit (the
highest newly reached, once per period, checked on the refresh interval):
\`{"event": "budget.threshold", "threshold", "budget", "spent", "periodStart",
"resetsAt", "at"}\`, delivered and retried like a task's final callback.

${rowsTable(schemaRows(budgetInputSchema()))}

${curl(e.createBudget)}

${curl(e.listBudgets)}

## Access

Every route needs a permission (\`keys.read\`, \`keys.write\`,
\`channels.read\`, … as \`src/admin/access.ts\` lists them). The admin key
is an owner. A person calls with a personal admin token (\`sk-pat-…\`),
acting with their role as it is at each request: \`owner\` (everything),
\`admin\` (everything, but only an owner gives the \`owner\` role or
changes, disables or deletes an owner), \`viewer\` (logs, usage, tasks and
prices, read-only). A team admin (a member with role \`admin\`) manages
their teams' keys, members and budgets and reads their teams' logs, usage
and tasks, nothing else: another team's record is a 404, a \`teamId\`
filter naming another team a 403, a budget on a user a 403. A caller
without the permission gets a 403 naming it (\`this needs the keys.write
permission; your role is viewer\`); a revoked or expired token, or a
disabled person's, a 401 saying which.

### \`GET /admin/me\`

Who is calling: \`kind\` (\`admin-key\`, \`token\`, \`session\`),
\`user\` (null for the admin key), \`role\`, \`adminOf\` (the teams
they administer) and \`permissions\`.

${curl(e.me)}

### \`GET/POST /admin/me/tokens\`, \`DELETE /admin/me/tokens/{id}\`

The caller's own tokens. A new one (\`{"name", "expiresInDays"?}\`)
answers 201 with \`token\`, the secret, shown this once (only its sha256
is stored); lists show \`prefix\`, \`state\` (\`active\`,
\`revoked\`, \`expired\`), \`lastUsedAt\` and never the secret. The
admin key is no person and has no tokens (400). Creation and revocation are
in the audit log (\`admin-token.create\`, \`admin-token.revoke\`).
From the CLI: \`tokens create --user EMAIL\`, \`tokens list\`,
\`tokens revoke ID\`.

### \`GET /admin/users/{id}/tokens\`, \`DELETE /admin/users/{id}/tokens/{tokenId}\`

A person's tokens, and revoking one (permission \`access.write\`).

${curl(e.userTokens)}

## OpenAPI

\`GET /admin/openapi.json\`: this API as an OpenAPI 3.1 document, generated
from the schemas it validates with and answers by (\`src/admin/openapi.ts\`);
\`test/admin/openapi.test.ts\` checks real answers against it. Each answer
has a name under \`components.schemas\` (\`KeyView\`, \`ChannelView\`,
\`LogPage\`, …), which the operations refer to with \`$ref\`; the console's
types (\`console/src/admin-api.d.ts\`) are generated from them.

${curl(e.openApi)}
`;
}
