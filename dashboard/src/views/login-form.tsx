/** The only thing shown until a key is stored: one password input, submitted with Enter. */
import { useState } from 'preact/hooks';

export function LoginForm(props: { notice: string | undefined; onKey(key: string): void }) {
  const [value, setValue] = useState('');
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
        {props.notice !== undefined && (
          <p class="error" role="alert">
            {props.notice}
          </p>
        )}
      </form>
    </main>
  );
}
