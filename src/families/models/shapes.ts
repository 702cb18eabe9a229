/**
 * One model list in each dialect's shape: OpenAI's `list` of `model`
 * objects, Anthropic's paged `data` with `has_more`, `first_id` and
 * `last_id`, and Gemini's `models` with the methods each name supports.
 * `created` is when this gateway instance started: the gateway does not know
 * when a provider published a model.
 */
import { contextWindowFor } from '../../core/context-windows.js';
import type { ListedModel } from './catalogue.js';

const startedAt = new Date();
const startedSeconds = Math.floor(startedAt.getTime() / 1000);

export function openAiModel(model: ListedModel) {
  return { id: model.id, object: 'model', created: startedSeconds, owned_by: model.ownedBy };
}

export function openAiList(models: readonly ListedModel[]) {
  return { object: 'list', data: models.map(openAiModel) };
}

export function anthropicModel(model: ListedModel) {
  return { id: model.id, type: 'model', display_name: model.id, created_at: startedAt.toISOString() };
}

export interface AnthropicPage {
  limit: number;
  beforeId?: string;
  afterId?: string;
}

/** A page of the list: after `afterId`, or the page that ends just before `beforeId`. */
export function anthropicList(models: readonly ListedModel[], page: AnthropicPage) {
  let start = 0;
  let end = models.length;
  if (page.afterId !== undefined) start = models.findIndex((m) => m.id === page.afterId) + 1;
  if (page.beforeId !== undefined) {
    end = Math.max(
      0,
      models.findIndex((m) => m.id === page.beforeId),
    );
    start = Math.max(0, end - page.limit);
  }
  const slice = models.slice(start, Math.min(end, start + page.limit));
  const hasMore = page.beforeId !== undefined ? start > 0 : start + slice.length < end;
  return { data: slice.map(anthropicModel), has_more: hasMore, first_id: slice[0]?.id ?? null, last_id: slice.at(-1)?.id ?? null };
}

const embeddingName = /embed/i;

export function geminiModel(model: ListedModel, contextWindows: Record<string, number> | undefined) {
  const embedding = embeddingName.test(model.id);
  const methods = embedding ? ['embedContent', 'batchEmbedContents'] : ['generateContent', 'streamGenerateContent', 'countTokens'];
  const inputTokenLimit = contextWindowFor(model.id, contextWindows);
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.id,
    description: `Served through this gateway by a ${model.ownedBy} channel.`,
    ...(inputTokenLimit !== undefined ? { inputTokenLimit } : {}),
    supportedGenerationMethods: methods,
  };
}
