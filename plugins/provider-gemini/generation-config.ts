// OpenAI sampling and output options as Gemini's generationConfig.
import type { ChatRequest, ResponseFormat } from '../../core/types/chat.js';
import { mapReasoningEffort } from './reasoning.js';
import type { GeminiGenerationConfig } from './types.js';

function stopSequences(stop: ChatRequest['stop']): string[] | undefined {
  if (stop === undefined || stop === null) return undefined;
  return typeof stop === 'string' ? [stop] : stop;
}

// responseJsonSchema takes the JSON Schema an OpenAI client sends as is; responseSchema is an
// OpenAPI 3.0 subset that would need translating and rejects keywords clients commonly use
// (additionalProperties, $ref/$defs, type arrays).
function applyResponseFormat(config: GeminiGenerationConfig, format: ResponseFormat | undefined): void {
  if (format === undefined || format.type === 'text') return;
  config.responseMimeType = 'application/json';
  if (format.type === 'json_schema' && format.json_schema.schema !== undefined) {
    config.responseJsonSchema = format.json_schema.schema;
  }
}

function setIfDefined<K extends keyof GeminiGenerationConfig>(
  config: GeminiGenerationConfig,
  key: K,
  value: GeminiGenerationConfig[K] | null | undefined,
): void {
  if (value !== undefined && value !== null) config[key] = value;
}

/** The generationConfig for `req` against upstream `model`, or undefined when nothing is set. */
export function toGenerationConfig(req: ChatRequest, model: string): GeminiGenerationConfig | undefined {
  const config: GeminiGenerationConfig = {};
  setIfDefined(config, 'temperature', req.temperature);
  setIfDefined(config, 'topP', req.top_p);
  setIfDefined(config, 'maxOutputTokens', req.max_completion_tokens ?? req.max_tokens);
  setIfDefined(config, 'stopSequences', stopSequences(req.stop));
  setIfDefined(config, 'candidateCount', req.n);
  setIfDefined(config, 'presencePenalty', req.presence_penalty);
  setIfDefined(config, 'frequencyPenalty', req.frequency_penalty);
  setIfDefined(config, 'seed', req.seed);
  applyResponseFormat(config, req.response_format);
  if (req.reasoning_effort !== undefined) setIfDefined(config, 'thinkingConfig', mapReasoningEffort(req.reasoning_effort, model));
  return Object.keys(config).length === 0 ? undefined : config;
}
