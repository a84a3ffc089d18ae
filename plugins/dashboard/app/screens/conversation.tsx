// A conversation: the calls that carry one label value (Open WebUI's chat id, when the tagging
// plugin makes it a label), oldest first, each as the user's last message beside the answer,
// with its model, tokens, cost and time, and a link to its full entry.
import { ErrorNote } from '../components/error-note.js';
import { conversationCalls } from '../conversation-calls.js';
import type { ConversationCall } from '../conversation-calls.js';
import { formatInt, formatTime, formatUsd } from '../format.js';
import { useLoad } from '../use-load.js';

export function Conversation({ name, value, onBack }: { name: string; value: string; onBack: () => void }) {
  const calls = useLoad(() => conversationCalls(name, value), [name, value]);
  return (
    <section aria-labelledby="conversation-title">
      <button type="button" class="secondary" onClick={onBack}>
        ← Audit log
      </button>
      <h1 id="conversation-title">Conversation</h1>
      <p class="hint">
        Every call labelled <code>{`${name}=${value}`}</code>, oldest first{calls.data !== null && `: ${calls.data.length} call${calls.data.length === 1 ? '' : 's'}`}.
      </p>
      <ErrorNote error={calls.error} />
      {calls.data === null && calls.error === null && <p>Loading…</p>}
      {calls.data !== null && (
        <ol class="conversation">
          {calls.data.map((call, i) => (
            <Call call={call} n={i + 1} />
          ))}
        </ol>
      )}
    </section>
  );
}

function Call({ call, n }: { call: ConversationCall; n: number }) {
  const s = call.summary;
  const answer = call.turn.assistant ?? (s.error === null ? null : `${s.status} ${s.error.type}${s.error.code === null ? '' : ` (${s.error.code})`}: ${s.error.message}`);
  return (
    <li class="call" aria-label={`Call ${n}`}>
      <div class="call-meta">
        <span>{formatTime(s.time)}</span>
        <span>{s.model ?? '—'}</span>
        <span>{`${formatInt(s.input_tokens)} in, ${formatInt(s.output_tokens)} out`}</span>
        <span>{formatUsd(s.cost_usd)}</span>
        <span>{`${Math.round(s.duration_ms)} ms`}</span>
        <a href={`#/audit/${encodeURIComponent(s.id)}`}>Full entry</a>
      </div>
      <div class="turn">
        <Said who="User" text={call.turn.user} truncated={call.truncated} />
        <Said who="Assistant" text={answer} truncated={call.truncated} bad={call.turn.assistant === null && s.error !== null} />
      </div>
    </li>
  );
}

function Said({ who, text, truncated, bad = false }: { who: string; text: string | null; truncated: boolean; bad?: boolean }) {
  return (
    <div class="said" role="group" aria-label={who}>
      <h3>{who}</h3>
      <p class={bad ? 'bad' : undefined}>{text ?? (truncated ? '(the stored body was cut: see the full entry)' : '—')}</p>
    </div>
  );
}
