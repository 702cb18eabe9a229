/** The fakes' shape as the harness's TypeScript tests see it (the fakes are plain ES modules run by node). */
export interface FakeRequest {
  time: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  status: number | null;
}

export interface Fake {
  name: string;
  origin: string;
  baseUrl: string;
  requests: FakeRequest[];
  /** A cloud type's channel needs: its credential, its type's settings, the one model every requested name maps to. */
  channel?: { apiKey: string; settings: Record<string, unknown>; upstreamModel: string };
  close(): Promise<void>;
}

export const FAKES: Record<string, (options?: { port?: number }) => Promise<Fake>>;

export function startFake(type: string, options?: { port?: number }): Promise<Fake>;
