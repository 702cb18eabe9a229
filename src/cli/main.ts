#!/usr/bin/env node
/**
 * The admin CLI: `npx switchyard <command>` or `npm run cli -- <command>`.
 * It opens the same storage as the gateway (SWITCHYARD_DATA_DIR or
 * SWITCHYARD_DATABASE_URL); a running gateway picks changes up within
 * SWITCHYARD_REFRESH_MS.
 */
import { parseArgs } from 'node:util';
import { AdminService, publicChannel, publicKey } from '../admin/service.js';
import { settingsFromEnv } from '../config/env.js';
import { GatewayError } from '../core/errors.js';
import { openStore } from '../storage/open.js';
import { SecretBox } from '../storage/secrets.js';
import type { Store } from '../storage/types.js';

const USAGE = `usage: switchyard <command> [options]

  keys create --name NAME [--key SECRET] [--quota USD] [--models a,b] [--allow-ips cidr,cidr]
              [--rpm N] [--tpm N] [--expires-at ISO-8601] [--strict-translation]
  keys list
  keys disable NAME|ID
  channels add --name NAME --type TYPE [--base-url URL] [--api-key KEY ...] [--models a,b]
               [--model-mapping client=upstream,...] [--priority N] [--weight N] [--settings JSON]
  channels list
  channels disable NAME|ID
  usage [--key NAME|ID] [--since ISO-8601]
`;

const list = (value: string | undefined) => (value === undefined ? undefined : value.split(',').map((item) => item.trim()).filter(Boolean));
const num = (value: string | undefined) => (value === undefined ? undefined : Number(value));

function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

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

async function run(argv: string[]): Promise<void> {
  const [group, action, ...rest] = argv;
  if (!group || group === 'help' || group === '--help') {
    process.stdout.write(USAGE);
    return;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
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
      since: { type: 'string' },
    },
  });
  const settings = settingsFromEnv();
  const store = await openStore({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir, schema: settings.databaseSchema });
  try {
    const admin = new AdminService(store, await SecretBox.open(settings.dataDir, settings.secretKey));
    const command = `${group} ${action ?? ''}`.trim();
    switch (command) {
      case 'keys create': {
        const { record, secret } = await admin.createKey({
          name: values.name,
          key: values.key,
          quota: num(values.quota),
          models: list(values.models),
          allowIps: list(values['allow-ips']),
          rpm: num(values.rpm),
          tpm: num(values.tpm),
          expiresAt: values['expires-at'],
          strictTranslation: values['strict-translation'],
        });
        print({ ...publicKey(record), key: secret });
        return;
      }
      case 'keys list':
        print((await store.keys.list()).map(publicKey));
        return;
      case 'keys disable':
        print(publicKey(await admin.updateKey(await findKeyId(store, positionals[0] ?? ''), { status: 'disabled' })));
        return;
      case 'channels add': {
        const mapping = Object.fromEntries((list(values['model-mapping']) ?? []).map((pair) => pair.split('=') as [string, string]));
        const record = await admin.createChannel({
          name: values.name,
          type: values.type,
          baseUrl: values['base-url'],
          apiKey: values['api-key'],
          models: list(values.models),
          modelMapping: mapping,
          priority: num(values.priority),
          weight: num(values.weight),
          settings: values.settings ? JSON.parse(values.settings) : undefined,
        });
        print(publicChannel(record));
        return;
      }
      case 'channels list':
        print((await store.channels.list()).map(publicChannel));
        return;
      case 'channels disable':
        print(publicChannel(await admin.updateChannel(await findChannelId(store, positionals[0] ?? ''), { enabled: false })));
        return;
      case 'usage': {
        const keyId = values.key ? await findKeyId(store, values.key) : undefined;
        const since = values.since ? Date.parse(values.since) : undefined;
        print(await store.logs.usage({ keyId, since }));
        return;
      }
      default:
        throw new GatewayError('invalid_request', `unknown command "${command}"\n\n${USAGE}`);
    }
  } finally {
    await store.close();
  }
}

run(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`switchyard: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
