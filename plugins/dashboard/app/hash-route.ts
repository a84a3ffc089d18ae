// Screens are addressed by the URL's hash (#/usage, #/audit/<id>), so the gateway serves one
// page and the browser's back button works. The key never goes in it.
import { useEffect, useState } from 'preact/hooks';

export function useHashRoute(): string[] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = (): void => setHash(location.hash);
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return hash.replace(/^#\/?/, '').split('/').filter((part) => part !== '').map(decodeURIComponent);
}

export const go = (...parts: string[]): void => {
  location.hash = `#/${parts.map(encodeURIComponent).join('/')}`;
};
