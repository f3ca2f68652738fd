/** The API key lives in the tab's session storage only: gone when the tab closes. */
const KEY = 'faultline.apiKey';

export function loadKey(): string | undefined {
  try {
    const v = sessionStorage.getItem(KEY);
    return v === null || v === '' ? undefined : v;
  } catch {
    return undefined;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function clearKey(): void {
  sessionStorage.removeItem(KEY);
}
