/**
 * Access tokens a cloud channel's key is exchanged for (an Entra ID token, a
 * Google OAuth token), kept per credential: a request with a fresh token in
 * hand gets it as a value, with no await on its path; within the refresh
 * margin the held token still serves while one refresh runs behind it; a
 * credential with no usable token waits for its one fetch in flight, shared
 * by every request that needs it. A failed refresh is tried again by the next
 * request; a failed fetch rejects every request that waited on it.
 */

/** What a fetch gives: the value to hand out (a token, or headers carrying it) and when it expires. */
export interface FetchedToken<T> {
  readonly value: T;
  /** Epoch ms. */
  readonly expiresAt: number;
}

/** Renewed this long before expiry at most; a short-lived token after three quarters of its life. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

interface Held<T> {
  token?: { value: T; refreshAt: number; expiresAt: number };
  fetching?: Promise<T>;
}

export class TokenCache<T> {
  private readonly held = new Map<string, Held<T>>();

  /** `maxCredentials`: credentials remembered at most (the first remembered forgotten first: keys rotated out of every channel). */
  constructor(private readonly maxCredentials = 512) {}

  /** The value for `credential`: as it is when fresh, else from `fetch` (started at most once at a time per credential). */
  get(credential: string, fetch: () => Promise<FetchedToken<T>>): T | Promise<T> {
    const entry = this.entryOf(credential);
    const token = entry.token;
    const now = Date.now();
    if (token && now < token.refreshAt) return token.value;
    if (token && now < token.expiresAt) {
      if (!entry.fetching) this.fetchInto(entry, fetch).catch(() => undefined);
      return token.value;
    }
    return entry.fetching ?? this.fetchInto(entry, fetch);
  }

  /** Forgets every token (tests). */
  clear(): void {
    this.held.clear();
  }

  private entryOf(credential: string): Held<T> {
    let entry = this.held.get(credential);
    if (!entry) {
      if (this.held.size >= this.maxCredentials) this.held.delete(this.held.keys().next().value as string);
      entry = {};
      this.held.set(credential, entry);
    }
    return entry;
  }

  private fetchInto(entry: Held<T>, fetch: () => Promise<FetchedToken<T>>): Promise<T> {
    const startedAt = Date.now();
    const fetching = fetch().then(
      (fetched) => {
        const margin = Math.min(REFRESH_MARGIN_MS, (fetched.expiresAt - startedAt) / 4);
        entry.token = { value: fetched.value, expiresAt: fetched.expiresAt, refreshAt: fetched.expiresAt - margin };
        entry.fetching = undefined;
        return fetched.value;
      },
      (error: unknown) => {
        entry.fetching = undefined;
        throw error;
      },
    );
    entry.fetching = fetching;
    return fetching;
  }
}
