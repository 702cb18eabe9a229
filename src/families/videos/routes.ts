/**
 * Family B: `/v1/videos` and `/v1/video/generations`, each in its own scope
 * with its own error shape, on one task family (ids work across both shapes).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/context.js';
import { registerGenerationsApi } from './generations-routes.js';
import { readVideoSettings } from './settings.js';
import { registerVideosApi } from './videos-routes.js';

export async function registerVideoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const settings = readVideoSettings(ctx.fileConfig);
  await app.register(async (scope) => registerVideosApi(scope, ctx, settings), { prefix: '/v1/videos' });
  await app.register(async (scope) => registerGenerationsApi(scope, ctx, settings), { prefix: '/v1/video/generations' });
}
