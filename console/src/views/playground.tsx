/**
 * Sends a prompt through one of the public chat families with a client key
 * (pasted, or a new `playground-<time>` key made here), plain or streamed,
 * and shows the answer's text beside the raw exchange.
 */
import { useRef, useState } from 'preact/hooks';
import { admin, errorOf } from '../api.js';
import { checkedOf, ErrorNote, valueOf } from '../components.js';
import { useLoad } from '../hooks.js';
import { answerText, buildExchange, eventText, FAMILY_NAMES, takeEvents, type Exchange, type PlaygroundFamily } from './playground-wire.js';

const CLIENT_KEY = 'switchyard.playgroundKey';

interface Outcome {
  exchange: Exchange;
  status?: number;
  contentType?: string;
  raw: string;
  text: string;
  done: boolean;
  error?: string;
}

function ClientKey({ value, onChange }: { value: string; onChange: (key: string) => void }) {
  const [error, setError] = useState<Error>();
  const create = async () => {
    setError(undefined);
    try {
      const created = await admin<{ key: string }>('POST', 'keys', { name: `playground-${Date.now()}` });
      onChange(created.key);
    } catch (failure) {
      setError(failure as Error);
    }
  };
  return (
    <div class="row">
      <label class="field">
        <span>Client key</span>
        <input name="clientKey" type="password" autocomplete="off" placeholder="paste a client key" value={value} onInput={(e) => onChange(valueOf(e))} />
      </label>
      <button type="button" class="secondary" onClick={create}>
        Create a playground key
      </button>
      <ErrorNote error={error} />
    </div>
  );
}

/** The request as sent, with the key hidden. */
function shownRequest(exchange: Exchange): string {
  const headers = Object.entries(exchange.headers).map(([name, value]) => `${name}: ${/key|authorization/i.test(name) ? `${value.slice(0, value.indexOf(' ') + 8)}…` : value}`);
  return `POST ${exchange.url}\n${headers.join('\n')}\n\n${JSON.stringify(exchange.body, null, 2)}`;
}

export function Playground() {
  const [key, setKeyState] = useState(sessionStorage.getItem(CLIENT_KEY) ?? '');
  const [family, setFamily] = useState<PlaygroundFamily>('chat-completions');
  const [model, setModel] = useState('');
  const [prompt, setPrompt] = useState('Say hello in five words.');
  const [stream, setStream] = useState(true);
  const [outcome, setOutcome] = useState<Outcome>();
  const abort = useRef<AbortController | null>(null);
  const setKey = (next: string) => {
    setKeyState(next);
    if (next) sessionStorage.setItem(CLIENT_KEY, next);
    else sessionStorage.removeItem(CLIENT_KEY);
  };
  const models = useLoad(async () => {
    if (!key) return [];
    const response = await fetch('/v1/models', { headers: { authorization: `Bearer ${key}` } });
    if (!response.ok) throw await errorOf(response);
    return ((await response.json()).data as Array<{ id: string }>).map((entry) => entry.id);
  }, [key]);

  const send = async (event: Event) => {
    event.preventDefault();
    const chosen = model.trim() || models.data?.[0] || '';
    const exchange = buildExchange(family, chosen, prompt, stream, key);
    let current: Outcome = { exchange, raw: '', text: '', done: false };
    const update = (change: Partial<Outcome>) => {
      current = { ...current, ...change };
      setOutcome(current);
    };
    update({});
    abort.current = new AbortController();
    try {
      const response = await fetch(exchange.url, { method: 'POST', headers: exchange.headers, body: JSON.stringify(exchange.body), signal: abort.current.signal });
      const contentType = response.headers.get('content-type') ?? '';
      update({ status: response.status, contentType });
      if (!response.ok || !contentType.includes('text/event-stream')) {
        const raw = await response.text();
        let text = '';
        try {
          text = response.ok ? answerText(family, JSON.parse(raw)) : '';
        } catch {
          // Not JSON: the raw text shows what came.
        }
        update({ raw, text, done: true, error: response.ok ? undefined : `HTTP ${response.status}` });
        return;
      }
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const events = takeEvents(buffer);
        buffer = events.rest;
        let added = '';
        for (const data of events.data) {
          if (data === '[DONE]') continue;
          try {
            added += eventText(family, JSON.parse(data));
          } catch {
            // A payload that is not JSON adds no text; it still shows in the raw view.
          }
        }
        update({ raw: current.raw + value, text: current.text + added });
      }
      update({ done: true });
    } catch (failure) {
      update({ done: true, error: (failure as Error).message });
    }
  };

  return (
    <section>
      <header class="view-head">
        <h1>Playground</h1>
      </header>
      <ClientKey value={key} onChange={setKey} />
      <form class="form" onSubmit={send}>
        <div class="row">
          <label class="field">
            <span>Family</span>
            <select name="family" value={family} onChange={(e) => setFamily(valueOf(e) as PlaygroundFamily)}>
              {Object.entries(FAMILY_NAMES).map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label class="field">
            <span>Model</span>
            <input name="model" list="playground-models" placeholder={models.data?.[0] ?? 'model name'} value={model} onInput={(e) => setModel(valueOf(e))} />
            <datalist id="playground-models">
              {models.data?.map((id) => (
                <option key={id} value={id} />
              ))}
            </datalist>
          </label>
          <label class="check">
            <input name="stream" type="checkbox" checked={stream} onChange={(e) => setStream(checkedOf(e))} /> Stream
          </label>
        </div>
        <ErrorNote error={models.error} />
        <label class="field">
          <span>Prompt</span>
          <textarea name="prompt" rows={4} value={prompt} onInput={(e) => setPrompt(valueOf(e))} />
        </label>
        <div class="actions">
          <button type="submit" disabled={!key || (outcome !== undefined && !outcome.done)}>
            Send
          </button>
          {outcome && !outcome.done ? (
            <button type="button" class="secondary" onClick={() => abort.current?.abort()}>
              Stop
            </button>
          ) : null}
        </div>
      </form>
      {outcome ? (
        <div class="exchange">
          <div>
            <h2>Answer {outcome.status ? <small class="muted">HTTP {outcome.status}</small> : null}</h2>
            {outcome.error ? <p class="error">{outcome.error}</p> : null}
            <div class="answer" data-testid="answer" data-done={outcome.done ? 'true' : 'false'}>
              {outcome.text}
            </div>
          </div>
          <div>
            <h2>Request</h2>
            <pre class="raw">{shownRequest(outcome.exchange)}</pre>
            <h2>Response {outcome.contentType ? <small class="muted">{outcome.contentType}</small> : null}</h2>
            <pre class="raw" data-testid="raw-response">
              {outcome.raw}
            </pre>
          </div>
        </div>
      ) : null}
    </section>
  );
}
