/**
 * A delegation that ended deletes each file it left upstream once (the
 * uploaded JSONL, the result files it read), or on Anthropic the ended
 * batch itself; a delete that fails is logged with the id and the
 * upstream's masked message, never thrown.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import type { UpstreamBatchClient } from '../../src/tasks/batches/delegation/host.js';
import type { Delegation } from '../../src/tasks/batches/delegation/schema.js';
import { removeUpstreamLeftovers } from '../../src/tasks/batches/delegation/tidy.js';

const ended = (files: Partial<Delegation>): Delegation => ({ id: 'bdel_1', batchId: 'batch_1', upstreamFileId: null, outputFileId: null, errorFileId: null, ...files }) as Delegation;

function recorder(fail: ReadonlySet<string> = new Set()) {
  const removed: string[] = [];
  const client = {
    removeFile: async (_delegation: Delegation, fileId: string) => {
      if (fail.has(fileId)) throw new GatewayError('upstream_error', 'upstream said no (key sk-***)', { status: 500, retryable: true });
      removed.push(fileId);
    },
  } as unknown as UpstreamBatchClient;
  return { client, removed };
}

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('removeUpstreamLeftovers', () => {
  it('deletes the input and both result files, each once', async () => {
    const { client, removed } = recorder();
    const { logger, lines } = capture();
    await removeUpstreamLeftovers(client, logger, ended({ upstreamFileId: 'file-in', outputFileId: 'file-out', errorFileId: 'file-err' }));
    expect(removed).toEqual(['file-in', 'file-out', 'file-err']);
    expect(lines).toEqual([]);
  });

  it('deletes nothing for a delegation that uploaded nothing', async () => {
    const { client, removed } = recorder();
    await removeUpstreamLeftovers(client, capture().logger, ended({}));
    expect(removed).toEqual([]);
  });

  it('logs a delete that failed and goes on with the others', async () => {
    const { client, removed } = recorder(new Set(['file-in']));
    const { logger, lines } = capture();
    await removeUpstreamLeftovers(client, logger, ended({ upstreamFileId: 'file-in', outputFileId: 'file-out' }));
    expect(removed).toEqual(['file-out']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'upstream batch file left undeleted', file: 'file-in', delegation: 'bdel_1', reason: 'upstream said no (key sk-***)' });
  });
});

describe('removeUpstreamLeftovers on an API that keeps no files', () => {
  function batchRemover(fail = false) {
    const removed: string[] = [];
    const client = {
      removeBatch: async (delegation: Delegation) => {
        if (fail) throw new GatewayError('invalid_request', 'the batch has not ended', { status: 400 });
        removed.push(delegation.upstreamBatchId!);
      },
    } as unknown as UpstreamBatchClient;
    return { client, removed };
  }

  it('deletes the upstream batch of a delegation that is done', async () => {
    const { client, removed } = batchRemover();
    await removeUpstreamLeftovers(client, capture().logger, ended({ state: 'done', upstreamBatchId: 'msgbatch_1' }));
    expect(removed).toEqual(['msgbatch_1']);
  });

  it('leaves the batch of an abandoned delegation (it may not have ended) and one never made', async () => {
    const { client, removed } = batchRemover();
    await removeUpstreamLeftovers(client, capture().logger, ended({ state: 'abandoned', upstreamBatchId: 'msgbatch_2' }));
    await removeUpstreamLeftovers(client, capture().logger, ended({ state: 'done', upstreamBatchId: null }));
    expect(removed).toEqual([]);
  });

  it('logs a delete that failed, with the batch id', async () => {
    const { client } = batchRemover(true);
    const { logger, lines } = capture();
    await removeUpstreamLeftovers(client, logger, ended({ state: 'done', upstreamBatchId: 'msgbatch_3' }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'upstream batch left undeleted', upstreamBatch: 'msgbatch_3', delegation: 'bdel_1', reason: 'the batch has not ended' });
  });
});
