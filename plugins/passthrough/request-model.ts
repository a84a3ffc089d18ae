// The model a passthrough request names, for the audit log, pricing and x-gateway-model: the
// `model` of a JSON body the gateway kept whole (OpenAI, Anthropic and their kin), else the
// model in a Gemini-style path (`models/gemini-2.5-flash:generateContent`).
import { isRecord } from '../provider-gemini/is-record.js';

const MODEL_IN_PATH = /\/models\/([^/:]+):/;

export function requestModel(body: Buffer | null, complete: boolean, contentType: string | undefined, upstreamPath: string): string | null {
  if (body !== null && complete && contentType !== undefined && contentType.toLowerCase().includes('json')) {
    try {
      const value: unknown = JSON.parse(body.toString('utf8'));
      if (isRecord(value) && typeof value['model'] === 'string' && value['model'] !== '') return value['model'];
    } catch {
      // Not JSON after all: the model is unknown, the call goes on.
    }
  }
  return MODEL_IN_PATH.exec(upstreamPath)?.[1] ?? null;
}
