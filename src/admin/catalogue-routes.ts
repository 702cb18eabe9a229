/**
 * What the gateway is configured with, read-only: settings (and what the
 * config file owns), the channel types it knows, and the admin API's own
 * OpenAPI document. Prices, which the operator sets, are in price-routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { configOwnedFields } from '../config/apply.js';
import { settingsView } from '../config/settings-view.js';
import type { AppContext } from '../http/context.js';
import { settingsJsonSchema } from '../upstreams/settings-check.js';
import { CHANNEL_TYPES } from '../upstreams/registry.js';

const VERSION = '0.1.0';

export function registerCatalogueRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/settings', { config: { permission: 'settings.read' } }, async () => ({
    data: settingsView(ctx.settings.environment ?? {}),
    configFile: ctx.settings.configPath ?? null,
    configOwned: await configOwnedFields(ctx.store),
  }));

  app.get('/channel-types', { config: { permission: 'channels.read' } }, async () => ({
    data: CHANNEL_TYPES.map(({ type, needs, defaultModels, settings }) => ({
      type,
      serves: [
        ...(ctx.adapters.has(type) ? ['chat' as const] : []),
        ...(ctx.tasks.channelTypes('images').has(type) ? ['images' as const] : []),
        ...(ctx.tasks.channelTypes('videos').has(type) ? ['videos' as const] : []),
      ],
      needs: {
        baseUrl: needs.baseUrl,
        ...(needs.baseUrlFrom ? { baseUrlFrom: needs.baseUrlFrom } : {}),
        credentials: needs.credentials,
        ...(needs.credentialsHint ? { credentialsHint: needs.credentialsHint } : {}),
      },
      ...(defaultModels ? { defaultModels: [...defaultModels] } : {}),
      settings: settingsJsonSchema(settings),
      ...(settings.impliedDefaults ? { impliedDefaults: settings.impliedDefaults } : {}),
    })),
  }));

  // Built on first request, from schemas loaded then: a start that never serves it never compiles them.
  // Anyone signed in may read what the API is (what they may call is /admin/me).
  app.get('/openapi.json', { config: { permission: 'self' } }, async () => (await import('./openapi.js')).adminOpenApi(VERSION));
}
