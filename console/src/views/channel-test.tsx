/** Sends one small request through a channel (`POST /admin/channels/:id/test`) and shows what came back. */
import { useState } from 'preact/hooks';
import { useSubmit } from '../hooks.js';
import { admin } from '../api.js';
import { Badge, Dialog, ErrorNote, valueOf } from '../components.js';
import { formatMs } from '../format.js';
import type { ChannelTest as TestResult, ChannelView } from '../types.js';

export function ChannelTest({ channel, onClose }: { channel: ChannelView; onClose: () => void }) {
  const [model, setModel] = useState('');
  const [result, setResult] = useState<TestResult>();
  const {
    submit: run,
    busy,
    error,
  } = useSubmit(async () => {
    setResult(undefined);
    setResult(await admin<TestResult>('POST', `channels/${encodeURIComponent(channel.id)}/test`, model.trim() ? { model: model.trim() } : {}));
  });
  return (
    <Dialog title={`Test ${channel.name}`} onClose={onClose}>
      <form class="form" onSubmit={run}>
        <label class="field">
          <span>Model</span>
          <input name="model" placeholder="the channel's first model" value={model} onInput={(e) => setModel(valueOf(e))} />
        </label>
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Testing…' : 'Run test'}
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {result ? (
        <dl class="facts" data-testid="test-result">
          <dt>Result</dt>
          <dd>
            <Badge text={result.ok ? 'ok' : 'failed'} />
          </dd>
          <dt>Status</dt>
          <dd>{result.status ?? '—'}</dd>
          <dt>Latency</dt>
          <dd>{formatMs(result.latencyMs)}</dd>
          <dt>Model</dt>
          <dd>{result.model ?? '—'}</dd>
          {result.error ? (
            <>
              <dt>Error</dt>
              <dd>
                {result.error.type}: {result.error.message}
              </dd>
            </>
          ) : null}
          {result.sample ? (
            <>
              <dt>Sample</dt>
              <dd>
                <pre>{result.sample}</pre>
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </Dialog>
  );
}
