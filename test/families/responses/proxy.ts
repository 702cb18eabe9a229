/**
 * A recording loopback proxy in front of a real upstream (in tests: another
 * gateway instance, whose Responses and Messages families stand in for the
 * providers). It can be switched off, to answer 503 as a failing provider would.
 */
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../../upstreams/support/fake-upstream.js';

export interface Proxy extends FakeUpstream {
  down: boolean;
  /** The upstream's answers, in order (bodies as text). */
  answers: string[];
}

export async function startProxy(target: string): Promise<Proxy> {
  const answers: string[] = [];
  let down = false;
  const upstream = await startFakeUpstream(async (request: RecordedRequest) => {
    if (down) return { status: 503, body: JSON.stringify({ error: { message: 'proxy switched off', type: 'server_error' } }) };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const name of ['authorization', 'x-api-key', 'anthropic-version', 'anthropic-beta']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const response = await fetch(`${target}${request.url}`, {
      method: request.method,
      headers,
      body: request.method === 'GET' || request.method === 'DELETE' ? undefined : request.body,
    });
    const body = await response.text();
    answers.push(body);
    return { status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' }, body };
  });
  const proxy = Object.assign(upstream, { answers }) as Proxy;
  Object.defineProperty(proxy, 'down', {
    get: () => down,
    set: (value: boolean) => {
      down = value;
    },
  });
  return proxy;
}
