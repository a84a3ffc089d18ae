// The shell: sign-in until a key is accepted, then a navigation bar and the screen the hash names.
import { useState } from 'preact/hooks';
import { go, useHashRoute } from './hash-route.js';
import { session } from './session.js';
import { AuditDetail } from './screens/audit-detail.js';
import { Audit } from './screens/audit.js';
import { Conversation } from './screens/conversation.js';
import { Keys } from './screens/keys.js';
import { Models } from './screens/models.js';
import { SignIn } from './screens/sign-in.js';
import { Usage } from './screens/usage.js';

const SCREENS = [
  { id: 'keys', title: 'Keys' },
  { id: 'usage', title: 'Usage' },
  { id: 'audit', title: 'Audit log' },
  { id: 'models', title: 'Models' },
] as const;

export function App() {
  const [signedIn, setSignedIn] = useState(session.key() !== null);
  const [screen = 'keys', ...rest] = useHashRoute();
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const signOut = (): void => {
    session.signOut();
    setSignedIn(false);
  };
  return (
    <>
      <header class="bar">
        <strong class="brand">Sluice</strong>
        <nav aria-label="Screens">
          {SCREENS.map((s) => (
            <a href={`#/${s.id}`} aria-current={screen === s.id || (screen === 'conversation' && s.id === 'audit') ? 'page' : undefined}>
              {s.title}
            </a>
          ))}
        </nav>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>{body(screen, rest)}</main>
    </>
  );
}

/** `#/audit/<id>` is one entry; `#/conversation/<label name>/<value>` one conversation. */
function body(screen: string, [id, value]: string[]) {
  switch (screen) {
    case 'usage':
      return <Usage />;
    case 'audit':
      return id === undefined ? <Audit /> : <AuditDetail id={id} onBack={() => go('audit')} />;
    case 'conversation':
      return id === undefined || value === undefined ? <Audit /> : <Conversation name={id} value={value} onBack={() => go('audit')} />;
    case 'models':
      return <Models />;
    default:
      return <Keys />;
  }
}
