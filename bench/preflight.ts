// One request per target and workload before any load, checked for shape. Without it a
// misconfigured target (wrong key, unknown model) answers a fast 4xx and wrk reports a
// wonderful throughput.
import { STREAM_CHUNK_COUNT } from './workloads.js';

export interface PreflightOutcome {
  ok: boolean;
  /** Why the target cannot be measured (when !ok), or a caveat worth printing (when ok). */
  note: string | null;
}

interface ChunkLike {
  object?: unknown;
  choices?: unknown;
  usage?: unknown;
}

function checkStream(text: string): PreflightOutcome {
  const payloads = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim());
  if (payloads[payloads.length - 1] !== '[DONE]') return { ok: false, note: 'stream did not end with data: [DONE]' };
  let choiceChunks = 0;
  let usageChunk = false;
  for (const payload of payloads.slice(0, -1)) {
    const chunk = JSON.parse(payload) as ChunkLike;
    if (Array.isArray(chunk.choices) && chunk.choices.length > 0) choiceChunks++;
    else if (typeof chunk.usage === 'object' && chunk.usage !== null) usageChunk = true;
  }
  if (!usageChunk) return { ok: false, note: 'stream had no usage chunk although stream_options.include_usage was set' };
  if (choiceChunks !== STREAM_CHUNK_COUNT) {
    return { ok: true, note: `stream carried ${choiceChunks} choice chunks, the mock sends ${STREAM_CHUNK_COUNT}` };
  }
  return { ok: true, note: null };
}

function checkCompletion(text: string): PreflightOutcome {
  const body = JSON.parse(text) as ChunkLike;
  if (body.object !== 'chat.completion' || !Array.isArray(body.choices) || body.choices.length === 0) {
    return { ok: false, note: 'response is not a chat.completion with choices' };
  }
  if (typeof body.usage !== 'object' || body.usage === null) return { ok: false, note: 'response has no usage' };
  return { ok: true, note: null };
}

export async function preflight(url: string, headers: Record<string, string>, body: string, stream: boolean): Promise<PreflightOutcome> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (response.status !== 200) return { ok: false, note: `HTTP ${response.status}: ${text.slice(0, 300)}` };
    return stream ? checkStream(text) : checkCompletion(text);
  } catch (error) {
    return { ok: false, note: `preflight failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
