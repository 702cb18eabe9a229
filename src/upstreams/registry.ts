/**
 * Every channel type the gateway knows, with what it can serve (chat, image
 * tasks, video tasks) and the schema of its `settings`. Adding an
 * upstream is one folder under src/upstreams/ and one entry here: the config
 * rules, the chat adapters and the task engine all read this list. The
 * implementations are loaded when a gateway starts, so the admin CLI, which
 * only checks settings, never loads tokenizers and converters.
 */
import { GatewayError } from '../core/errors.js';
import { anthropicSettings } from './anthropic/settings.js';
import { azureOpenAiSettings } from './azure-openai/settings.js';
import { geminiSettings } from './gemini/settings.js';
import type { ImageTaskUpstream } from '../tasks/image-contract.js';
import type { AnyTaskUpstream } from '../tasks/types.js';
import type { VideoTaskUpstream } from '../tasks/video-contract.js';
import { igProxySettings } from './ig-proxy/settings.js';
import { openAiChatSettings } from './openai-chat/settings.js';
import { openAiResponsesSettings } from './openai-responses/settings.js';
import { openAiVideosSettings } from './openai-videos/settings.js';
import type { ChannelSettingsSpec } from './settings-check.js';
import { simulatorSettings } from './simulator/settings.js';
import { vertexSettings } from './vertex/settings.js';
import { bedrockSettings } from './bedrock/settings.js';
import { bedrockKeyProblem } from './bedrock/credentials.js';
import { vertexKeyProblem } from './vertex/key-format.js';
import type { TypedChannelSettings, TypedSettings } from './typed-settings.js';
import type { ImageOperation, Prepared, UpstreamAdapter } from './types.js';
import type { z } from 'zod';
import { wanSettings } from './wan/settings.js';

/** What a channel type serves; absent members are work it cannot do. */
export interface UpstreamSet {
  chat?: UpstreamAdapter;
  /** OpenAI image generation by a type without a chat adapter (ig-proxy's imagine, answered while the client waits). */
  images?: ImageOperation;
  imageTasks?: ImageTaskUpstream;
  videoTasks?: VideoTaskUpstream;
}

/** What a channel of a type must declare before it is stored (src/config/entity-rules.ts checks it). */
export interface ChannelNeeds {
  /** An absolute http(s) base URL; false where the type has a public default or calls nothing. */
  readonly baseUrl: boolean;
  /** A setting that, when set, supplies the base URL instead (openai-chat's `preset`). */
  readonly baseUrlFrom?: string;
  /** At least one credential; false where the upstream may run keyless (no auth header is sent then). */
  readonly credentials: boolean;
  /** What the key is for this type, shown where an operator pastes it; absent: a plain API key. */
  readonly credentialsHint?: string;
}

export interface ChannelType {
  readonly type: string;
  readonly needs: ChannelNeeds;
  /** The models a channel serves when it lists none; absent: the operator must list them. */
  readonly defaultModels?: readonly string[];
  /** The keys its channels' `settings` take, each documented; anything else is refused when written. */
  readonly settings: ChannelSettingsSpec;
  /**
   * For a type whose adapter takes a request by more than one protocol (`nativeFor`): the columns of
   * the docs' translation tables, each a label and the upstream model that picks its protocol.
   * Absent: one column, named by the type.
   */
  readonly planColumns?: Readonly<Record<string, { readonly upstreamModel: string }>>;
  /**
   * Why a key can never serve a channel of this type with these settings (a
   * malformed credential: AWS access keys that are not `ID:SECRET`, a JSON
   * key that is no service-account key), checked when a channel is written
   * and when a stored one is loaded, so the operator is told by field then,
   * not by the first request. Never quotes the key. Absent: any key may do.
   */
  keyProblem?(key: string, settings: Record<string, unknown>): string | undefined;
  load(): Promise<UpstreamSet>;
}

const REMOTE: ChannelNeeds = { baseUrl: true, credentials: true };

/** Whether two types are the same type (not merely assignable: a method's parameters are checked both ways, so a narrower one would pass). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * A type's chat adapter, tied to its settings schema: an adapter whose
 * settings type is not what `settings` outputs fails typecheck here. Its
 * `prepare` receives the channel's settings typed, in full (defaults filled
 * in): the pipeline hands over the record the channel registry parsed, read
 * as it is; any other record is parsed once (typed-settings.ts).
 */
export function chatAdapter<Shape extends z.ZodRawShape, Settings, P extends Prepared<unknown>>(
  settings: TypedChannelSettings<Shape>,
  adapter: UpstreamAdapter<Settings, P> & (Same<Settings, TypedSettings<Shape>> extends true ? unknown : { settingsMismatch: never }),
): UpstreamAdapter {
  // The options are written out, not spread: a spread on the request path costs microseconds.
  const prepare: UpstreamAdapter['prepare'] = (request, options) =>
    adapter.prepare(request, { strict: options.strict, settings: settings.read(options.settings) as Settings, upstreamModel: options.upstreamModel, dialect: options.dialect });
  return { ...adapter, prepare } as UpstreamAdapter;
}

export const CHANNEL_TYPES: readonly ChannelType[] = [
  {
    type: 'simulator',
    // Runs in the gateway: nothing to address or authenticate, and it can stand in for any model.
    needs: { baseUrl: false, credentials: false },
    defaultModels: ['*'],
    settings: simulatorSettings.spec,
    load: async () => ({
      chat: chatAdapter(simulatorSettings, (await import('./simulator/index.js')).simulatorAdapter),
      imageTasks: (await import('./simulator/images/index.js')).imageSimulator,
      videoTasks: (await import('./simulator/videos/index.js')).videoSimulator,
    }),
  },
  {
    type: 'anthropic',
    needs: REMOTE,
    settings: anthropicSettings.spec,
    load: async () => ({ chat: chatAdapter(anthropicSettings, (await import('./anthropic/index.js')).anthropicAdapter) }),
  },
  // The public service is the default address.
  {
    type: 'gemini',
    needs: { baseUrl: false, credentials: true },
    settings: geminiSettings.spec,
    load: async () => ({ chat: chatAdapter(geminiSettings, (await import('./gemini/index.js')).geminiAdapter) }),
  },
  // Local servers (vLLM, llama.cpp, Ollama) often run without a key; a preset names a known service's address.
  {
    type: 'openai-chat',
    needs: { baseUrl: true, baseUrlFrom: 'preset', credentials: false },
    settings: openAiChatSettings.spec,
    load: async () => ({ chat: chatAdapter(openAiChatSettings, (await import('./openai-chat/index.js')).openAiChatAdapter) }),
  },
  // OpenAI's public address is the default.
  {
    type: 'openai-responses',
    needs: { baseUrl: false, credentials: true },
    settings: openAiResponsesSettings.spec,
    load: async () => ({ chat: chatAdapter(openAiResponsesSettings, (await import('./openai-responses/index.js')).openAiResponsesAdapter) }),
  },
  // The address follows the project's location.
  {
    type: 'vertex',
    needs: {
      baseUrl: false,
      credentials: true,
      credentialsHint: 'a service-account JSON key, pasted whole (auth service-account), or an OAuth access token (auth access-token)',
    },
    settings: vertexSettings.spec,
    keyProblem: vertexKeyProblem,
    planColumns: {
      'vertex (claude)': { upstreamModel: 'claude-sonnet-4-5' },
      'vertex (gemini)': { upstreamModel: 'gemini-2.5-flash' },
      'vertex (openai-compatible)': { upstreamModel: 'meta/llama-4-maverick-17b-128e-instruct-maas' },
    },
    load: async () => ({ chat: chatAdapter(vertexSettings, (await import('./vertex/index.js')).vertexAdapter) }),
  },
  // The address follows the region.
  {
    type: 'bedrock',
    needs: {
      baseUrl: false,
      credentials: true,
      credentialsHint: 'AWS access keys as ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN], signed with SigV4 (auth sigv4), or a Bedrock API key (auth api-key)',
    },
    settings: bedrockSettings.spec,
    keyProblem: bedrockKeyProblem,
    planColumns: { 'bedrock (claude)': { upstreamModel: 'anthropic.claude-sonnet-4-5-20250929-v1:0' }, 'bedrock (converse)': { upstreamModel: 'amazon.nova-pro-v1:0' } },
    load: async () => ({ chat: chatAdapter(bedrockSettings, (await import('./bedrock/index.js')).bedrockAdapter) }),
  },
  // The resource URL is the base URL.
  {
    type: 'azure-openai',
    needs: { ...REMOTE, credentialsHint: "the resource's api-key (auth api-key) or the Entra ID application's client secret (auth entra-id)" },
    settings: azureOpenAiSettings.spec,
    load: async () => ({ chat: chatAdapter(azureOpenAiSettings, (await import('./azure-openai/index.js')).azureOpenAiAdapter) }),
  },
  // Image proxies often run without a secret (the header is then left out).
  {
    type: 'ig-proxy',
    needs: { baseUrl: true, credentials: false },
    settings: igProxySettings.spec,
    load: async () => ({ imageTasks: (await import('./ig-proxy/index.js')).igProxyUpstream, images: (await import('./ig-proxy/images.js')).igProxyImages }),
  },
  { type: 'openai-videos', needs: REMOTE, settings: openAiVideosSettings.spec, load: async () => ({ videoTasks: (await import('./openai-videos/index.js')).openAiVideosUpstream }) },
  { type: 'wan', needs: REMOTE, settings: wanSettings.spec, load: async () => ({ videoTasks: (await import('./wan/index.js')).wanUpstream }) },
];

export function channelType(type: string): ChannelType | undefined {
  return CHANNEL_TYPES.find((entry) => entry.type === type);
}

export interface LoadedUpstreams {
  adapters: AdapterRegistry;
  /** Every task upstream of every type, for the task engine. */
  tasks: AnyTaskUpstream[];
}

/** Loads every type's implementations. */
export async function loadUpstreams(): Promise<LoadedUpstreams> {
  const sets = await Promise.all(CHANNEL_TYPES.map((entry) => entry.load()));
  return {
    adapters: new AdapterRegistry(
      sets.flatMap((set) => (set.chat ? [set.chat] : [])),
      CHANNEL_TYPES.flatMap((entry, i) => (sets[i].images && !sets[i].chat ? [[entry.type, sets[i].images] as const] : [])),
    ),
    tasks: sets.flatMap((set) => [set.imageTasks, set.videoTasks].filter((upstream) => upstream !== undefined)),
  };
}

/** Channel type → chat adapter, and the image operations of types without one. */
export class AdapterRegistry {
  private readonly adapters = new Map<string, UpstreamAdapter>();
  private readonly imageOnly: ReadonlyMap<string, ImageOperation>;

  constructor(adapters: UpstreamAdapter[], imageOnly: Iterable<readonly [string, ImageOperation]> = []) {
    for (const adapter of adapters) this.adapters.set(adapter.type, adapter);
    this.imageOnly = new Map(imageOnly);
  }

  /** The type's image operation: its chat adapter's, else its own (ig-proxy); undefined when it makes no images. */
  images(type: string): ImageOperation | undefined {
    return this.adapters.get(type)?.images ?? this.imageOnly.get(type);
  }

  get(type: string): UpstreamAdapter {
    const adapter = this.adapters.get(type);
    if (!adapter) throw new GatewayError('internal', `no upstream adapter for channel type "${type}"`);
    return adapter;
  }

  has(type: string): boolean {
    return this.adapters.has(type);
  }

  types(): string[] {
    return [...this.adapters.keys()];
  }
}

/** The chat adapters of every channel type. */
export async function defaultAdapters(): Promise<AdapterRegistry> {
  return (await loadUpstreams()).adapters;
}
