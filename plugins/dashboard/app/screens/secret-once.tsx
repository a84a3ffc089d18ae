// The new key's secret: the gateway returns it once and stores only its hash, so this panel is
// the operator's only chance to copy it. Closing it forgets the secret.
import { useState } from 'preact/hooks';
import type { CreatedKey } from '../types.js';

export function SecretOnce({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = (): void => {
    navigator.clipboard.writeText(created.secret).then(
      () => setCopied('Copied.'),
      () => setCopied('Copying was refused by the browser: select the secret and copy it by hand.'),
    );
  };
  return (
    <div class="panel secret" role="status" aria-labelledby="secret-title">
      <h2 id="secret-title">Key “{created.name}” created</h2>
      <p>Copy its secret now: it is shown this once and cannot be read again.</p>
      <div class="secret-row">
        <output class="secret-value" aria-label="Secret">
          {created.secret}
        </output>
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      {copied !== null && <p aria-live="polite">{copied}</p>}
    </div>
  );
}
