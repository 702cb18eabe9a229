/** The admin key or a personal admin token, checked against the admin API before it is kept (in sessionStorage, for this tab only). */
import { useState } from 'preact/hooks';
import { useSubmit } from './hooks.js';
import { ApiError, checkAdminKey, setAdminKey } from './api.js';
import { ErrorNote, valueOf } from './components.js';

export function Login() {
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
