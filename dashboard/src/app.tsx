/** Key gate, then the shell with its three views. No protected route is called before a key is stored. */
import { useState } from 'preact/hooks';
import { clearKey, loadKey, storeKey } from './api/key-store.js';
import { LoginForm } from './views/login-form.js';
import { Shell } from './views/shell.js';

export function App() {
  const [key, setKey] = useState<string | undefined>(loadKey());
  const [notice, setNotice] = useState<string | undefined>(undefined);

  if (key === undefined) {
    return (
      <LoginForm
        notice={notice}
        onKey={(k) => {
          storeKey(k);
          setNotice(undefined);
          setKey(k);
        }}
      />
    );
  }
  const signOut = (message?: string): void => {
    clearKey();
    setNotice(message);
    setKey(undefined);
  };
  return <Shell apiKey={key} onUnauthorized={() => signOut('The service refused this key (401). Enter the API key again.')} onSignOut={() => signOut()} />;
}
