// Sign in with the master key or an admin key: checked against an admin route before it is
// kept, so a wrong key is told at once rather than on the first screen.
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api.js';
import { session } from '../session.js';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      await api('/admin/audit?limit=1', { key });
      session.signIn(key);
      onSignedIn();
    } catch (err) {
      setMessage(signInError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="sign-in">
      <h1>Sluice dashboard</h1>
      <form onSubmit={submit}>
        <label for="key">Master key or admin key</label>
        <input id="key" type="password" autocomplete="off" required value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        {message !== null && (
          <p role="alert" class="error">
            {message}
          </p>
        )}
      </form>
      <p class="hint">The key is kept in this tab's session only and forgotten when you sign out or close it.</p>
    </main>
  );
}

function signInError(err: unknown): string {
  if (err instanceof ApiError && err.status === 401) return 'That key was not accepted. Check it and try again.';
  if (err instanceof ApiError && err.code === 'admin_required') return 'That key is valid but has no admin access.';
  // A disabled or expired key: the gateway's own words say which.
  if (err instanceof ApiError && err.status === 403) return `That key was refused: ${err.message}.`;
  return `The gateway could not be reached: ${(err as Error).message}`;
}
