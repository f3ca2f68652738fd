/**
 * The only thing shown until a key is stored: one password input, submitted with Enter. It asks
 * the open /api/v2/health whether the server checks a key; with authentication off it says that
 * any value works.
 */
import { useEffect, useState } from 'preact/hooks';

async function authenticationMode(): Promise<string | undefined> {
  try {
    const r = await fetch('/api/v2/health');
    const body: unknown = await r.json();
    return typeof body === 'object' && body !== null && 'authentication' in body && typeof body.authentication === 'string' ? body.authentication : undefined;
  } catch {
    return undefined;
  }
}

export function LoginForm(props: { notice: string | undefined; onKey(key: string): void }) {
  const [value, setValue] = useState('');
  const [mode, setMode] = useState<string | undefined>(undefined);
  useEffect(() => {
    void authenticationMode().then(setMode);
  }, []);
  return (
    <main class="login">
      <h1>
        <img src="/favicon.svg" alt="" width={28} height={28} /> Faultline
      </h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const k = value.trim();
          if (k !== '') props.onKey(k);
        }}
      >
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autocomplete="current-password" required autofocus value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        <p class="hint">Press Enter to continue. The key stays in this tab's session storage.</p>
        {mode === 'off' && (
          <p class="hint" id="auth-off">
            Authentication is off on this server (no SVC_API_KEY is set): any value works.
          </p>
        )}
        {props.notice !== undefined && (
          <p class="error" role="alert">
            {props.notice}
          </p>
        )}
      </form>
    </main>
  );
}
