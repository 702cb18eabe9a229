/**
 * The admin CLI's commands (`main.ts` is the executable around them).
 * It opens the same storage as the gateway (SWITCHYARD_DATA_DIR or
 * SWITCHYARD_DATABASE_URL, or --data-dir), names it on stderr, and refuses
 * to create a new empty database by accident (see data-place.ts); a running
 * gateway picks changes up within SWITCHYARD_REFRESH_MS.
 */
import { parseArgs } from 'node:util';
import { rotateAdminKey } from '../admin/admin-key.js';
import { deletePrice, listPrices, setPrice } from '../admin/prices.js';
import { AdminService, publicChannel, publicKey } from '../admin/service.js';
import { settingsFromEnv } from '../config/env.js';
import { GatewayError } from '../core/errors.js';
import { openStore } from '../storage/open.js';
import { resolveDataPlace } from './data-place.js';
import { StoreSecrets } from '../storage/store-secrets.js';
import { rotateSecretKey } from './secret-key.js';
import { AUDIT_FLAGS, cliActor, listAudit } from './audit.js';
import { findTeamId, findUserId, runTeamCommand, splitCommand, TEAM_COMMANDS, TEAM_OPTIONS, TEAM_USAGE } from './team-commands.js';
import { BUDGET_COMMANDS, BUDGET_OPTIONS, BUDGET_USAGE, runBudgetCommand } from './budgets.js';
import type { Store } from '../storage/types.js';

const USAGE = `usage: switchyard <command> [options] [--data-dir DIR]

  keys create --name NAME [--key SECRET] [--quota USD] [--models a,b] [--allow-ips cidr,cidr]
              [--rpm N] [--tpm N] [--expires-at ISO-8601] [--strict-translation]
              [--team NAME|ID [--user EMAIL|ID]]
  keys list
  keys disable NAME|ID
  keys enable NAME|ID
${TEAM_USAGE}  channels add --name NAME --type TYPE --models a,b [--base-url URL] [--api-key KEY ...]
               [--model-mapping client=upstream,...] [--priority N] [--weight N] [--settings JSON]
               (models: names, prefix* or '*'; which types need a base URL and a key:
               docs/providers.md)
  channels list
  channels disable NAME|ID
  channels enable NAME|ID
  channels delete NAME|ID
  prices list               every price set (source admin or config), and stored ones
                            that no longer parse
  prices set MODEL --input USD --output USD [--cache-read USD] [--cache-write USD]
             [--cache-write-1h USD] [--reasoning USD] [--per-call USD]
  prices set MODEL --json '{"input": 3, "output": 15, "tiers": [...]}'
                            (USD per million tokens; MODEL: a name, '*' or 'prefix*')
  prices delete MODEL
  usage [--key NAME|ID] [--team NAME|ID] [--user EMAIL|ID] [--since ISO-8601]
  admin-key rotate          a new generated admin key (the old one stops working
                            when the gateway restarts); prints it once
  secret-key rotate [--new-key PASSPHRASE] [--forget-unreadable]
                            seal every channel's credentials under a new key
                            (a new secret.key, or a SWITCHYARD_SECRET_KEY to set)
  audit list [--actor KIND[:ID]] [--action PREFIX] [--target-kind KIND] [--target-id ID]
             [--since ISO-8601] [--until ISO-8601] [--limit N]
                            administrative changes, newest first (who, what, before and after)
${BUDGET_USAGE}
Storage: --data-dir, else SWITCHYARD_DATA_DIR, else ./data (as the gateway);
PostgreSQL when SWITCHYARD_DATABASE_URL is set.
`;

const COMMANDS = new Set([
  'keys create',
  'keys list',
  'keys disable',
  'keys enable',
  'channels add',
  'channels list',
  'channels disable',
  'channels enable',
  'channels delete',
  'prices list',
  'prices set',
  'prices delete',
  'usage',
  'admin-key rotate',
  'secret-key rotate',
  'audit list',
  ...TEAM_COMMANDS,
  ...BUDGET_COMMANDS,
]);

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
const num = (value: string | undefined) => (value === undefined ? undefined : Number(value));

function required(ref: string | undefined): string {
  if (!ref) throw new GatewayError('invalid_request', 'name the key or channel: NAME or ID');
  return ref;
}

/** The price `prices set` was given: `--json`, or one flag per field (checked by the schema the API uses). */
function priceInput(values: Record<string, string | boolean | string[] | undefined>): Record<string, unknown> {
  const flags = Object.entries(PRICE_FLAGS).filter(([flag]) => values[flag] !== undefined);
  if (typeof values.json === 'string') {
    if (flags.length > 0) throw new GatewayError('invalid_request', `give the price either as --json or as flags, not both (--${flags[0][0]})`);
    try {
      return JSON.parse(values.json);
    } catch {
      throw new GatewayError('invalid_request', '--json: not valid JSON', { param: 'json' });
    }
  }
  if (flags.length === 0) throw new GatewayError('invalid_request', 'give the price: --input and --output (USD per million tokens), other flags, or --json');
  return Object.fromEntries(flags.map(([flag, field]) => [field, Number(values[flag])]));
}

const PRICE_FLAGS: Record<string, string> = {
  input: 'input',
  output: 'output',
  'cache-read': 'cacheRead',
  'cache-write': 'cacheWrite',
  'cache-write-1h': 'cacheWrite1h',
  reasoning: 'reasoning',
  'per-call': 'perCall',
};

/** Where the CLI reads its environment and writes its output (tests pass their own). */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processIo: CliIo = {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

async function findKeyId(store: Store, ref: string): Promise<string> {
  const record = (await store.keys.get(ref)) ?? (await store.keys.getByName(ref));
  if (!record) throw new GatewayError('not_found', `no key named or with id "${ref}"`);
  return record.id;
}

async function findChannelId(store: Store, ref: string): Promise<string> {
  const record = (await store.channels.get(ref)) ?? (await store.channels.getByName(ref));
  if (!record) throw new GatewayError('not_found', `no channel named or with id "${ref}"`);
  return record.id;
}

export async function runCli(argv: string[], io: CliIo = processIo): Promise<void> {
  const print = (value: unknown) => io.stdout(JSON.stringify(value, null, 2) + '\n');
  // Options may come anywhere, before or after the command words.
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      'data-dir': { type: 'string' },
      name: { type: 'string' },
      key: { type: 'string' },
      quota: { type: 'string' },
      models: { type: 'string' },
      'allow-ips': { type: 'string' },
      rpm: { type: 'string' },
      tpm: { type: 'string' },
      'expires-at': { type: 'string' },
      'strict-translation': { type: 'boolean' },
      type: { type: 'string' },
      'base-url': { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      'model-mapping': { type: 'string' },
      priority: { type: 'string' },
      weight: { type: 'string' },
      settings: { type: 'string' },
      ...Object.fromEntries(Object.keys(AUDIT_FLAGS).map((flag) => [flag, { type: 'string' as const }])),
      since: { type: 'string' },
      'new-key': { type: 'string' },
      'forget-unreadable': { type: 'boolean' },
      ...Object.fromEntries(Object.keys(PRICE_FLAGS).map((flag) => [flag, { type: 'string' as const }])),
      json: { type: 'string' },
      ...TEAM_OPTIONS,
      ...BUDGET_OPTIONS,
    },
  });
  const [group, ...words] = positionals;
  if (!group || group === 'help' || values.help) {
    io.stdout(USAGE);
    return;
  }
  // `usage` takes no action word; every other group takes one, then an optional NAME|ID.
  const { action, ref } = splitCommand(group, words);
  const command = `${group} ${action ?? ''}`.trim();
  if (!COMMANDS.has(command) || (group === 'usage' && ref !== undefined)) {
    throw new GatewayError('invalid_request', `unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  }
  const settings = settingsFromEnv(io.env);
  const place = resolveDataPlace(settings, values['data-dir']);
  io.stderr(`switchyard: using ${place.description}\n`);
  const store = await openStore({ databaseUrl: settings.databaseUrl, dataDir: place.dataDir, schema: settings.databaseSchema, sqliteCacheMb: settings.sqliteCacheMb });
  try {
    // The gateway's rule: the key must be the one the store was sealed with; commands that need none still run without it.
    const secrets = await StoreSecrets.open(store, { dataDir: place.dataDir, envKey: settings.secretKey });
    if (secrets.problem) io.stderr(`switchyard: warning: ${secrets.problem.detail}\n`);
    const admin = new AdminService(store, secrets);
    const actor = cliActor(io.env);
    if (TEAM_COMMANDS.includes(command)) return await runTeamCommand(command, ref, values, store, print, actor);
    switch (command) {
      case 'keys create': {
        const { record, secret } = await admin.createKey(
          {
            name: values.name,
            key: values.key,
            quota: num(values.quota),
            models: list(values.models),
            allowIps: list(values['allow-ips']),
            rpm: num(values.rpm),
            tpm: num(values.tpm),
            expiresAt: values['expires-at'],
            strictTranslation: values['strict-translation'],
            teamId: values.team ? await findTeamId(store, values.team) : undefined,
            userId: values.user ? await findUserId(store, values.user) : undefined,
          },
          actor,
        );
        print({ ...publicKey(record), key: secret });
        return;
      }
      case 'keys list':
        print((await store.keys.list()).map(publicKey));
        return;
      case 'keys disable':
      case 'keys enable': {
        const status = action === 'enable' ? 'active' : 'disabled';
        print(publicKey(await admin.updateKey(await findKeyId(store, required(ref)), { status }, actor, `key.${action === 'enable' ? 'enable' : 'disable'}`)));
        return;
      }
      case 'channels add': {
        const mapping = Object.fromEntries((list(values['model-mapping']) ?? []).map((pair) => pair.split('=') as [string, string]));
        const record = await admin.createChannel(
          {
            name: values.name,
            type: values.type,
            baseUrl: values['base-url'],
            apiKey: values['api-key'],
            models: list(values.models),
            modelMapping: mapping,
            priority: num(values.priority),
            weight: num(values.weight),
            settings: values.settings ? JSON.parse(values.settings) : undefined,
          },
          actor,
        );
        print(publicChannel(record));
        return;
      }
      case 'channels list':
        print((await store.channels.list()).map(publicChannel));
        return;
      case 'channels disable':
      case 'channels enable':
        print(publicChannel(await admin.updateChannel(await findChannelId(store, required(ref)), { enabled: action === 'enable' }, actor)));
        return;
      case 'channels delete': {
        print(await admin.deleteChannel(await findChannelId(store, required(ref)), actor));
        return;
      }
      case 'prices list':
        print(await listPrices(store));
        return;
      case 'prices set':
        if (!ref) throw new GatewayError('invalid_request', "name the model: a name, '*' or 'prefix*'");
        print(await setPrice(store, ref, priceInput(values), actor));
        return;
      case 'prices delete':
        if (!ref) throw new GatewayError('invalid_request', "name the model: a name, '*' or 'prefix*'");
        print(await deletePrice(store, ref, actor));
        return;
      case 'usage': {
        const keyId = values.key ? await findKeyId(store, values.key) : undefined;
        const owner = { teamId: values.team ? await findTeamId(store, values.team) : undefined, userId: values.user ? await findUserId(store, values.user) : undefined };
        const since = values.since ? Date.parse(values.since) : undefined;
        print(await store.logs.usage({ keyId, ...owner, since }));
        return;
      }
      case 'admin-key rotate': {
        // The gateway ignores the stored hash when the variable is set: rotating would change nothing.
        if (settings.adminKey) throw new GatewayError('invalid_request', 'SWITCHYARD_ADMIN_KEY is set, so the gateway uses that key: change the variable instead');
        const adminKey = await rotateAdminKey(store, actor);
        print({ adminKey, note: 'shown once; restart the gateway for it to take effect (the old key stops working then)' });
        return;
      }
      case 'secret-key rotate':
        print(await rotateSecretKey(store, secrets, { dataDir: place.dataDir, newKey: values['new-key'], forgetUnreadable: values['forget-unreadable'] === true }, actor));
        return;
      case 'audit list':
        print(await listAudit(store, values));
        return;
      default:
        if (BUDGET_COMMANDS.includes(command)) return print(await runBudgetCommand(store, command, ref, values, actor));
        throw new GatewayError('invalid_request', `unknown command "${command}"\n\n${USAGE}`);
    }
  } finally {
    await store.close();
  }
}
