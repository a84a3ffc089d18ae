// The operator's key lives in sessionStorage only: gone when the tab closes, never in a URL,
// a cookie or a log.
const SLOT = 'sluice.dashboard.key';

export const session = {
  key: (): string | null => sessionStorage.getItem(SLOT),
  signIn: (key: string): void => sessionStorage.setItem(SLOT, key),
  signOut: (): void => sessionStorage.removeItem(SLOT),
};
