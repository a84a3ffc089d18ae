// The OpenTelemetry GenAI semantic conventions' values for what the gateway knows: the
// provider's well-known name, the operation's name, and what the answer says of itself (the
// model that answered, why it stopped). https://opentelemetry.io/docs/specs/semconv/gen-ai/
import {
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EMBEDDINGS,
  GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC,
  GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI,
  GEN_AI_PROVIDER_NAME_VALUE_DEEPSEEK,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
  GEN_AI_PROVIDER_NAME_VALUE_GROQ,
  GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI,
  GEN_AI_PROVIDER_NAME_VALUE_OPENAI,
  GEN_AI_PROVIDER_NAME_VALUE_X_AI,
} from '@opentelemetry/semantic-conventions/incubating';
import { StreamFold } from '../../core/stream/stream-fold.js';

/** Provider types with a well-known name in the conventions; any other type is its own name. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: GEN_AI_PROVIDER_NAME_VALUE_OPENAI,
  anthropic: GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC,
  gemini: GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
  azure: GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI,
  groq: GEN_AI_PROVIDER_NAME_VALUE_GROQ,
  mistral: GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI,
  xai: GEN_AI_PROVIDER_NAME_VALUE_X_AI,
  deepseek: GEN_AI_PROVIDER_NAME_VALUE_DEEPSEEK,
};

export function genAiProviderName(type: string): string {
  return PROVIDER_NAMES[type] ?? type;
}

/** Chat Completions and Responses (compact too) are `chat`; other operations keep the gateway's name. */
export function genAiOperationName(operation: string): string {
  if (operation === 'embeddings') return GEN_AI_OPERATION_NAME_VALUE_EMBEDDINGS;
  if (operation === 'chat' || operation === 'responses' || operation === 'compact') return GEN_AI_OPERATION_NAME_VALUE_CHAT;
  return operation;
}

export interface AnswerFacts {
  model: string | null;
  finishReasons: string[];
}

/** Bytes read from either end of a body forwarded untouched: it is not parsed on the request path. */
const HEAD_BYTES = 512;
const TAIL_BYTES = 2048;
const MODEL_MEMBER = /"model"\s*:\s*"([^"\\]{1,256})"/;
const FINISH_REASON = /"finish_reason"\s*:\s*"([A-Za-z_]{1,64})"/g;

/**
 * The answering model and the finish reasons: from the answer's object (a translated reply, a
 * folded stream), or, for the provider's own bytes, from the head (`model` comes first in an
 * OpenAI answer, last in an embeddings list) and the tail (each choice's `finish_reason` comes
 * after its message).
 */
export function answerFacts(body: unknown): AnswerFacts {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return rawFacts(body);
  const answer = body instanceof StreamFold ? body.value() : body;
  if (typeof answer !== 'object' || answer === null) return { model: null, finishReasons: [] };
  const record = answer as Record<string, unknown>;
  const finishReasons: string[] = [];
  if (Array.isArray(record['choices'])) {
    for (const choice of record['choices'] as unknown[]) {
      const reason = (choice as Record<string, unknown> | null)?.['finish_reason'];
      if (typeof reason === 'string') finishReasons.push(reason);
    }
  } else if (typeof record['status'] === 'string' && record['object'] === 'response') {
    finishReasons.push(record['status']);
  }
  return { model: typeof record['model'] === 'string' ? record['model'] : null, finishReasons };
}

function rawFacts(raw: string | Buffer): AnswerFacts {
  const head = typeof raw === 'string' ? raw.slice(0, HEAD_BYTES) : raw.toString('latin1', 0, HEAD_BYTES);
  const tail = typeof raw === 'string' ? raw.slice(-TAIL_BYTES) : raw.toString('latin1', Math.max(0, raw.length - TAIL_BYTES));
  // An embeddings list names its model after the vectors.
  const model = (MODEL_MEMBER.exec(head) ?? MODEL_MEMBER.exec(tail))?.[1] ?? null;
  const finishReasons: string[] = [];
  for (const match of tail.matchAll(FINISH_REASON)) finishReasons.push(match[1]!);
  return { model, finishReasons };
}
