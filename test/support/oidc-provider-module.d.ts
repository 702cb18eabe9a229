/** The few parts of `oidc-provider` (which ships no types) the test provider uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount(ctx: unknown, id: string): Promise<Account | undefined> });
    proxy: boolean;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
