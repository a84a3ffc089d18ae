// The calls of one conversation: every audit entry carrying one label value (GET /admin/audit
// with `label=name:value`, every page by its cursor), oldest first, each with its turn read
// from its full entry's bodies (GET /admin/audit/{id}, a few at a time).
import { api, query } from './api.js';
import { turnOf } from './conversation-turn.js';
import type { Turn } from './conversation-turn.js';
import type { AuditEntry, AuditSummary, List } from './types.js';

const PAGE = 500;
// Entries fetched at once: enough to overlap round trips, few enough not to crowd the gateway.
const PARALLEL = 4;

export interface ConversationCall {
  summary: AuditSummary;
  turn: Turn;
  /** A body the audit cut short (max_body_bytes): its text may be missing. */
  truncated: boolean;
}

export async function conversationCalls(name: string, value: string): Promise<ConversationCall[]> {
  const summaries: AuditSummary[] = [];
  let cursor: string | null = null;
  do {
    const page: List<AuditSummary> = await api<List<AuditSummary>>(`/admin/audit${query({ label: `${name}:${value}`, limit: PAGE, cursor })}`);
    summaries.push(...page.data);
    cursor = page.next_cursor ?? null;
  } while (cursor !== null);
  // The API lists newest first.
  summaries.reverse();
  const calls: ConversationCall[] = new Array(summaries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < summaries.length) {
      const i = next++;
      const entry = await api<AuditEntry>(`/admin/audit/${encodeURIComponent(summaries[i]!.id)}`);
      calls[i] = { summary: summaries[i]!, turn: turnOf(entry.request_body, entry.response_body), truncated: entry.request_body_truncated || entry.response_body_truncated };
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, summaries.length) }, worker));
  return calls;
}
