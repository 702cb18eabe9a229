/**
 * A delegation that ended deletes each file it left upstream once (the
 * uploaded JSONL, the result files it read); a delete that fails is logged
 * with the file's id and the upstream's masked message, never thrown.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import type { UpstreamBatchClient } from '../../src/tasks/batches/delegation/host.js';
import type { Delegation } from '../../src/tasks/batches/delegation/schema.js';
import { removeUpstreamFiles } from '../../src/tasks/batches/delegation/tidy.js';

const ended = (files: Partial<Delegation>): Delegation => ({ id: 'bdel_1', batchId: 'batch_1', upstreamFileId: null, outputFileId: null, errorFileId: null, ...files }) as Delegation;

function recorder(fail: ReadonlySet<string> = new Set()) {
  const removed: string[] = [];
  const client = {
    remove: async (_delegation: Delegation, fileId: string) => {
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

describe('removeUpstreamFiles', () => {
  it('deletes the input and both result files, each once', async () => {
    const { client, removed } = recorder();
    const { logger, lines } = capture();
    await removeUpstreamFiles(client, logger, ended({ upstreamFileId: 'file-in', outputFileId: 'file-out', errorFileId: 'file-err' }));
    expect(removed).toEqual(['file-in', 'file-out', 'file-err']);
    expect(lines).toEqual([]);
  });

  it('deletes nothing for a delegation that uploaded nothing', async () => {
    const { client, removed } = recorder();
    await removeUpstreamFiles(client, capture().logger, ended({}));
    expect(removed).toEqual([]);
  });

  it('logs a delete that failed and goes on with the others', async () => {
    const { client, removed } = recorder(new Set(['file-in']));
    const { logger, lines } = capture();
    await removeUpstreamFiles(client, logger, ended({ upstreamFileId: 'file-in', outputFileId: 'file-out' }));
    expect(removed).toEqual(['file-out']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'upstream batch file left undeleted', file: 'file-in', delegation: 'bdel_1', reason: 'upstream said no (key sk-***)' });
  });
});
