// The admin key, asked once and kept for the tab (sessionStorage): gone when the tab closes,
// never written to localStorage or a cookie. The control plane reads it from X-Emulator-Admin-Key.

const STORAGE_KEY = 'topics-emulator.admin-key';
export const ADMIN_KEY_HEADER = 'X-Emulator-Admin-Key';
// Where storage is refused (some private modes), the key lives as long as the page.
let pageKey: string | undefined;

export function storedAdminKey(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? pageKey;
  } catch {
    return pageKey;
  }
}

export function storeAdminKey(key: string | undefined): void {
  pageKey = key;
  try {
    if (key === undefined) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // kept in pageKey
  }
}

export function adminKeyHeaders(): Record<string, string> {
  const key = storedAdminKey();
  return key === undefined ? {} : { [ADMIN_KEY_HEADER]: key };
}
