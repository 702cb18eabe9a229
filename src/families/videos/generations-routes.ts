/**
 * `/v1/video/generations` (registered under that prefix): create from JSON
 * (201) and read the result in the spec's shape. The ids are those of
 * `/v1/videos`. Errors leave as `{code: null, message, param, type}`.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/context.js';
import { readGenerationBody } from './bodies.js';
import { generationsErrorBody, installErrorShape } from './errors.js';
import { authed, json } from './handler.js';
import { renderCreated, renderGeneration } from './render.js';
import { createVideo, ownedVideo } from './service.js';
import type { VideoSettings } from './settings.js';

export async function registerGenerationsApi(app: FastifyInstance, ctx: AppContext, settings: VideoSettings): Promise<void> {
  installErrorShape(app, generationsErrorBody);
  app.post(
    '/',
    authed(ctx, settings, async (vc, request, reply) => {
      const task = await createVideo(vc, readGenerationBody(request.body));
      return json(reply, 201, { ...renderCreated(task), task_id: task.id });
    }),
  );
  app.get(
    '/:id',
    authed(ctx, settings, async (vc, request, reply) => {
      const task = await ownedVideo(vc, (request.params as { id: string }).id);
      return json(reply, 200, renderGeneration(task, { base: vc.meta.publicBase, retentionMs: settings.retentionMs }));
    }),
  );
}
