// Test-only: chat calls through the openai SDK that report what a limit test asserts: the status,
// the error code, and the rate-limit headers, for answers and refusals alike.
import OpenAI from 'openai';

export const CHAT = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }], max_tokens: 4 };

export interface Outcome {
  status: number;
  code: string | null;
  headers: Record<string, string | null>;
}

export const LIMIT_HEADERS = ['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens', 'retry-after'];

export async function call(client: OpenAI, options: { stream?: boolean; body?: object } = {}): Promise<Outcome> {
  const body = options.body ?? CHAT;
  try {
    if (options.stream === true) {
      const { data, response } = await client.chat.completions.create({ ...(body as typeof CHAT), stream: true }).withResponse();
      for await (const _chunk of data);
      return { status: response.status, code: null, headers: pick(response.headers) };
    }
    const { response } = await client.chat.completions.create(body as typeof CHAT).withResponse();
    return { status: response.status, code: null, headers: pick(response.headers) };
  } catch (err) {
    if (err instanceof OpenAI.APIError) return { status: err.status ?? 0, code: String(err.code), headers: pick(err.headers as Headers) };
    throw err;
  }
}

/** `200`, or the status and error code: `429 budget_exceeded`. */
export async function statusOf(client: OpenAI, body?: object): Promise<string> {
  const o = await call(client, body === undefined ? {} : { body });
  return o.status === 200 ? '200' : `${o.status} ${o.code}`;
}

/** The log stage settles after the answer went out: a moment for it. */
export const settled = (ms = 50): Promise<void> => new Promise((r) => setTimeout(r, ms));

function pick(headers: Headers): Record<string, string | null> {
  return Object.fromEntries(LIMIT_HEADERS.map((h) => [h, headers.get(h)]));
}

/** Waits for the next minute when this one ends within `ms`: exact window counts need calls inside one minute. */
export async function awayFromMinuteEdge(ms = 8000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await settled(left + 100);
}
