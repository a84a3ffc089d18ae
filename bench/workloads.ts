// The two request shapes every target is measured with. Only the model name differs between
// targets: Sluice routes on a provider prefix, the mock and the bare forwarder take the
// upstream name as is.

/** How many chat.completion.chunk events carrying choices the mock streams per request. */
export const STREAM_CHUNK_COUNT = 20;

export const CHAT_PATH = '/v1/chat/completions';

export type WorkloadId = 'chat' | 'chat-stream';

export interface Workload {
  id: WorkloadId;
  title: string;
  stream: boolean;
}

export const WORKLOADS: readonly Workload[] = [
  { id: 'chat', title: 'chat completion, non-streaming', stream: false },
  { id: 'chat-stream', title: `chat completion, streaming (${STREAM_CHUNK_COUNT} chunks + usage)`, stream: true },
];

/** A request body typical of a small chat call: a system prompt, one user turn, a couple of parameters. */
export function chatRequestBody(model: string, stream: boolean): string {
  return JSON.stringify({
    model,
    messages: [
      { role: 'system', content: 'You are a concise assistant. Answer in one short paragraph.' },
      { role: 'user', content: 'Explain in two sentences what an AI gateway does and why teams put one in front of model providers.' },
    ],
    temperature: 0.2,
    max_tokens: 256,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}
