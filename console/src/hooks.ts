/** Hooks the views share: loading admin data, the hash route, media as blob: URLs. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { admin, adminBlob } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change (and on `reload`); a stale answer never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: Error) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** The hash route as path segments: `#/logs/abc` → `['logs', 'abc']`. */
export function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = () => setRoute(read());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export function navigate(...segments: string[]): void {
  location.hash = `#/${segments.map(encodeURIComponent).join('/')}`;
}

/**
 * Media behind the admin key: fetched with the Bearer header, shown through a
 * blob: URL that is released when the component goes.
 */
export function useBlobUrl(path: string | null | undefined): { url?: string; type?: string; error?: Error } {
  const [state, setState] = useState<{ url?: string; type?: string; error?: Error }>({});
  useEffect(() => {
    if (!path) return;
    let url: string | undefined;
    let current = true;
    adminBlob(path).then(
      (blob) => {
        if (!current) return;
        url = URL.createObjectURL(blob);
        setState({ url, type: blob.type });
      },
      (error: Error) => current && setState({ error }),
    );
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return state;
}

export interface Submission {
  submit: (event: Event) => Promise<void>;
  busy: boolean;
  error: Error | undefined;
}

/**
 * A form's submit handler: no page load, busy while `action` runs, and its
 * failure kept as the error to show (passed through `explain` first, when given).
 */
export function useSubmit(action: () => Promise<void>, explain: (failure: Error) => Error = (failure) => failure): Submission {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(explain(failure as Error));
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy, error };
}

/**
 * A row's action from a list view (delete, disable): the admin call, then the
 * list reloaded; a refusal kept to show above the list, cleared by the next try.
 */
export function useRowAction(reload: () => void): { act: (method: string, path: string, body?: unknown) => Promise<void>; error?: Error } {
  const [error, setError] = useState<Error>();
  const act = async (method: string, path: string, body?: unknown) => {
    setError(undefined);
    try {
      await admin(method, path, body);
      reload();
    } catch (refused) {
      setError(refused as Error);
    }
  };
  return { act, error };
}
