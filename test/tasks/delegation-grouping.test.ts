/** The pure step deciding which batch lines go to an upstream batch: by the first channel each model routes to, one group per (channel, upstream model), bounded. */
import { describe, expect, it } from 'vitest';
import { type DelegationTarget, groupForDelegation } from '../../src/tasks/batches/delegation/grouping.js';
import type { DelegatedLine } from '../../src/tasks/batches/delegation/schema.js';

const line = (index: number, body: Record<string, unknown>): DelegatedLine => ({ index, customId: `c-${index}`, body });

const ROUTES: Record<string, DelegationTarget | undefined> = {
  'gpt-a': { channelId: 'ch-openai', upstreamModel: 'gpt-a' },
  alias: { channelId: 'ch-openai', upstreamModel: 'gpt-a' },
  'gpt-b': { channelId: 'ch-openai', upstreamModel: 'gpt-b' },
  'gpt-b-other': { channelId: 'ch-second', upstreamModel: 'gpt-b' },
};

describe('groupForDelegation', () => {
  it('groups by channel and upstream model, leaving unroutable lines local', () => {
    const lines = [
      line(0, { model: 'gpt-a' }),
      line(1, { model: 'local-model' }),
      line(2, { model: 'gpt-b' }),
      line(3, { model: 'alias' }),
      line(4, { model: 'gpt-b-other' }),
      line(5, { model: 'gpt-a', stream: true }),
      line(6, { messages: [] }),
    ];
    const asked: string[] = [];
    const groups = groupForDelegation(lines, (model) => {
      asked.push(model);
      return ROUTES[model];
    });
    expect(groups).toEqual([
      { channelId: 'ch-openai', upstreamModel: 'gpt-a', indexes: [0, 3] },
      { channelId: 'ch-openai', upstreamModel: 'gpt-b', indexes: [2] },
      { channelId: 'ch-second', upstreamModel: 'gpt-b', indexes: [4] },
    ]);
    // Each model is routed once: every line of a model goes where its first line went.
    expect(asked).toEqual(['gpt-a', 'local-model', 'gpt-b', 'alias', 'gpt-b-other']);
  });

  it('splits a group at the upstream limit of lines per batch', () => {
    const lines = Array.from({ length: 5 }, (_, i) => line(i, { model: 'gpt-a' }));
    expect(groupForDelegation(lines, (model) => ROUTES[model], 2).map((group) => group.indexes)).toEqual([[0, 1], [2, 3], [4]]);
  });

  it('delegates nothing when no model routes to a batch API', () => {
    expect(groupForDelegation([line(0, { model: 'gpt-a' })], () => undefined)).toEqual([]);
  });
});
