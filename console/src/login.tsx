/**
 * The login: single sign-on when the gateway has it (a link to its login
 * route, which sends the browser to the provider and back with a session),
 * and the admin key or a personal admin token, checked against the admin API before it is kept (in
 * sessionStorage, for this tab only).
 */
import { useState } from 'preact/hooks';
import { useSubmit } from './hooks.js';
import { ApiError, checkAdminKey, setAdminKey, type SsoInfo } from './api.js';
import { ErrorNote, valueOf } from './components.js';

export function Login({ sso }: { sso: SsoInfo }) {
  const [key, setKey] = useState('');
  const { submit, busy, error } = useSubmit(
    async () => {
      await checkAdminKey(key.trim());
      setAdminKey(key.trim());
    },
    (failure) => (failure instanceof ApiError && failure.status === 401 ? new Error(failure.message ? `The gateway refused it: ${failure.message}.` : 'The gateway refused it.') : failure),
  );
  return (
    <div class="login">
      <form onSubmit={submit}>
        <h1>Switchyard console</h1>
        {sso.enabled && (
          <>
            <a class="button sso" href={`/admin/auth/oidc/login?return=${encodeURIComponent(`/console/${location.hash}`)}`}>
              Sign in with {sso.label ?? 'single sign-on'}
            </a>
            <p class="or">or with the admin key or a personal admin token</p>
          </>
        )}
        <label class="field">
          <span>Admin key or personal admin token</span>
          <input type="password" name="adminKey" autocomplete="current-password" required value={key} onInput={(e) => setKey(valueOf(e))} />
        </label>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy || !key.trim()}>
          Log in
        </button>
        <small>Paste the admin key (sk-admin-…) or your personal admin token (sk-pat-…). It stays in this tab's session storage and goes only to this gateway's admin API.</small>
      </form>
    </div>
  );
}
