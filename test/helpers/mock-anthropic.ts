// A strict local mock of Anthropic's HTTP API (POST /v1/messages, GET /v1/models). It rejects
// what the real API rejects, with Anthropic's error body and status, so a translation mistake
// fails a test the way it would fail in production instead of passing against a lenient fake.
// Accepted calls get the recorded payloads, or what the test scripted for them.
import type { ServerResponse } from 'node:http';
import { fixtureJson, fixtureText } from './fixtures.js';
import { MockProvider, sendJson, sendSse, splitSse } from './mock-provider.js';
import type { MockHandler, RecordedRequest } from './mock-provider.js';

export const ANTHROPIC_KEY = 'k';
/** The versions Anthropic has published; any other value of the header is rejected. */
const VERSIONS: ReadonlySet<string> = new Set(['2023-06-01', '2023-01-01']);

export type AnthropicAnswer =
  | { kind: 'message'; body: unknown }
  | { kind: 'stream'; events: string[]; delayMs: number }
  | { kind: 'error'; status: number; type: string; message: string };

/** Scripted answers built from fixture files (paths under test/fixtures/). */
export const answers = {
  message: (path: string): AnthropicAnswer => ({ kind: 'message', body: fixtureJson(path) }),
  /** `delayMs` spaces the events out, so each reaches the gateway as its own chunk as it would from Anthropic. */
  stream: (path: string, delayMs = 0): AnthropicAnswer => ({ kind: 'stream', events: splitSse(fixtureText(path)), delayMs }),
  error: (status: number, type: string, message: string): AnthropicAnswer => ({ kind: 'error', status, type, message }),
};

const DEFAULT_MESSAGE = 'recorded/anthropic/messages.json';
const DEFAULT_STREAM = 'recorded/anthropic/messages_stream.txt';

export function anthropicErrorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: 'req_011CMockRequest' };
}

/** A request the real API would refuse, with the status and error type it would use. */
class Rejection extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

function reject(message: string, status = 400, type = 'invalid_request_error'): never {
  throw new Rejection(status, type, message);
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function header(req: RecordedRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function checkHeaders(req: RecordedRequest): void {
  const key = header(req, 'x-api-key');
  if (key === undefined || key === '') reject('x-api-key header is required', 401, 'authentication_error');
  if (key !== ANTHROPIC_KEY) reject('invalid x-api-key', 401, 'authentication_error');
  const version = header(req, 'anthropic-version');
  if (version === undefined || version === '') reject('anthropic-version: header is required');
  if (!VERSIONS.has(version)) reject(`anthropic-version: invalid version '${version}'. See https://docs.anthropic.com/en/api/versioning`);
}

// ---- POST /v1/messages ---------------------------------------------------------------------

const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set([
  'model', 'messages', 'max_tokens', 'system', 'stop_sequences', 'stream', 'temperature', 'top_p', 'top_k',
  'metadata', 'tools', 'tool_choice', 'thinking', 'service_tier', 'container', 'mcp_servers',
]);
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const EMPTY_TEXT = 'messages: text content blocks must be non-empty';

function checkText(block: Json, where: string, emptyMessage: string): void {
  if (typeof block['text'] !== 'string') reject(`${where}.text: Field required`);
  if (block['text'] === '') reject(emptyMessage);
}

function checkImage(block: Json, where: string): void {
  const source = block['source'];
  if (!isObject(source)) reject(`${where}.source: Field required`);
  if (source['type'] === 'url') {
    if (typeof source['url'] !== 'string' || !/^https?:\/\//.test(source['url'])) reject(`${where}.source.url: Input should be a valid URL`);
    return;
  }
  if (source['type'] !== 'base64') reject(`${where}.source.type: Input tag '${String(source['type'])}' does not match any of the expected tags: 'base64', 'url'`);
  if (typeof source['media_type'] !== 'string' || !IMAGE_TYPES.has(source['media_type'])) {
    reject(`${where}.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`);
  }
  if (typeof source['data'] !== 'string' || source['data'] === '') reject(`${where}.source.base64.data: Field required`);
}

function checkToolResult(block: Json, where: string): void {
  if (typeof block['tool_use_id'] !== 'string') reject(`${where}.tool_use_id: Field required`);
  const content = block['content'];
  if (content === undefined || typeof content === 'string') return;
  if (!Array.isArray(content)) reject(`${where}.content: Input should be a valid list`);
  content.forEach((inner: unknown, k) => {
    const at = `${where}.content.${k}`;
    if (!isObject(inner)) reject(`${at}: Input should be a valid dictionary`);
    if (inner['type'] === 'text') checkText(inner, at, EMPTY_TEXT);
    else if (inner['type'] === 'image') checkImage(inner, at);
    else reject(`${at}.type: Input tag '${String(inner['type'])}' does not match any of the expected tags: 'text', 'image', 'search_result', 'document'`);
  });
}

function checkBlock(block: unknown, where: string, role: 'user' | 'assistant'): void {
  if (!isObject(block)) reject(`${where}: Input should be a valid dictionary`);
  const type = block['type'];
  const userOnly = type === 'image' || type === 'document' || type === 'tool_result';
  const assistantOnly = type === 'tool_use' || type === 'thinking' || type === 'redacted_thinking';
  if ((userOnly && role !== 'user') || (assistantOnly && role !== 'assistant')) reject(`${where}: '${String(type)}' blocks are not allowed in '${role}' messages`);
  switch (type) {
    case 'text': return checkText(block, where, EMPTY_TEXT);
    case 'image': return checkImage(block, where);
    case 'document': {
      const source = block['source'];
      if (!isObject(source) || (source['type'] === 'base64' && source['media_type'] !== 'application/pdf')) reject(`${where}.source: Input should be a PDF document source`);
      return;
    }
    case 'tool_use':
      if (typeof block['id'] !== 'string' || !/^[a-zA-Z0-9_-]+$/.test(block['id'])) reject(`${where}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (typeof block['name'] !== 'string' || block['name'] === '') reject(`${where}.name: Field required`);
      if (!isObject(block['input'])) reject(`${where}.input: Input should be a valid dictionary`);
      return;
    case 'tool_result': return checkToolResult(block, where);
    case 'thinking':
    case 'redacted_thinking':
      return;
    default:
      reject(`${where}.type: Input tag '${String(type)}' found using 'type' does not match any of the expected tags`);
  }
}

function blocksOf(content: unknown, where: string): unknown[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) reject(`${where}: Input should be a valid list`);
  return content;
}

function idsOf(blocks: readonly unknown[], type: 'tool_use' | 'tool_result'): string[] {
  const key = type === 'tool_use' ? 'id' : 'tool_use_id';
  return blocks.filter((b): b is Json => isObject(b) && b['type'] === type).map((b) => String(b[key]));
}

/**
 * Every tool_use must be answered by a tool_result in the very next (user) message, every
 * tool_result must answer a tool_use of the message just before, and tool results come first.
 */
function checkToolPairing(turns: ReadonlyArray<{ role: string; blocks: unknown[] }>): void {
  turns.forEach((turn, i) => {
    const results = idsOf(turn.blocks, 'tool_result');
    const calls = i > 0 ? idsOf(turns[i - 1]!.blocks, 'tool_use') : [];
    const stray = turn.blocks.findIndex((b) => isObject(b) && b['type'] === 'tool_result' && !calls.includes(String(b['tool_use_id'])));
    if (stray !== -1) {
      reject(
        `messages.${i}.content.${stray}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String((turn.blocks[stray] as Json)['tool_use_id'])}. ` +
          'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      );
    }
    const firstOther = turn.blocks.findIndex((b) => !isObject(b) || b['type'] !== 'tool_result');
    if (results.length > 0 && firstOther !== -1 && firstOther < results.length) {
      reject(`messages.${i}: \`tool_result\` blocks must come first in the content, before any other block`);
    }
    const next = turns[i + 1];
    if (next === undefined) return;
    const answered = idsOf(next.blocks, 'tool_result');
    const missing = idsOf(turn.blocks, 'tool_use').filter((id) => !answered.includes(id));
    if (missing.length > 0) {
      reject(
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
          'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
      );
    }
  });
}

function checkMessages(messages: unknown): void {
  if (!Array.isArray(messages)) reject('messages: Field required');
  if (messages.length === 0) reject('messages: at least one message is required');
  const turns: Array<{ role: string; blocks: unknown[] }> = [];
  messages.forEach((message: unknown, i) => {
    if (!isObject(message)) reject(`messages.${i}: Input should be a valid dictionary`);
    const role = message['role'];
    if (role === 'system') {
      reject('messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.');
    }
    if (role !== 'user' && role !== 'assistant') reject(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (i === 0 && role !== 'user') reject('messages: first message must use the "user" role');
    if (i > 0 && turns[i - 1]!.role === role) {
      reject(`messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`);
    }
    const blocks = blocksOf(message['content'], `messages.${i}.content`);
    const optionalFinal = role === 'assistant' && i === messages.length - 1;
    if (blocks.length === 0 && !optionalFinal) {
      reject(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    blocks.forEach((block, j) => checkBlock(block, `messages.${i}.content.${j}`, role));
    turns.push({ role, blocks });
  });
  checkToolPairing(turns);
}

function checkSystem(system: unknown): void {
  if (system === undefined || typeof system === 'string') return;
  if (!Array.isArray(system)) reject('system: Input should be a valid string or list');
  system.forEach((block: unknown, i) => {
    if (!isObject(block) || block['type'] !== 'text') reject(`system.${i}.type: Input should be 'text'`);
    checkText(block, `system.${i}`, 'system: text content blocks must be non-empty');
  });
}

function checkRange(body: Json, key: string, min: number, max: number): void {
  const value = body[key];
  if (value === undefined) return;
  if (typeof value !== 'number') reject(`${key}: Input should be a valid number`);
  if (value < min) reject(`${key}: Input should be greater than or equal to ${min}`);
  if (value > max) reject(`${key}: Input should be less than or equal to ${max}`);
}

function checkTools(body: Json): string[] {
  const tools = body['tools'];
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) reject('tools: Input should be a valid list');
  return tools.map((tool: unknown, i) => {
    if (!isObject(tool)) reject(`tools.${i}: Input should be a valid dictionary`);
    for (const key of Object.keys(tool)) {
      if (!['name', 'description', 'input_schema', 'cache_control', 'type'].includes(key)) reject(`tools.${i}.custom.${key}: Extra inputs are not permitted`);
    }
    const name = tool['name'];
    if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(name)) reject(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
    const schema = tool['input_schema'];
    if (!isObject(schema)) reject(`tools.${i}.custom.input_schema: Field required`);
    if (schema['type'] !== 'object') reject(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
    return name;
  });
}

function checkToolChoice(body: Json, toolNames: readonly string[]): void {
  const choice = body['tool_choice'];
  if (choice === undefined) return;
  if (toolNames.length === 0) reject('tool_choice may only be specified while providing tools.');
  if (!isObject(choice) || !['auto', 'any', 'tool', 'none'].includes(String(choice['type']))) {
    reject("tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'");
  }
  if (choice['type'] === 'tool' && !toolNames.includes(String(choice['name']))) reject(`Tool '${String(choice['name'])}' not found in provided tools`);
  if (choice['type'] === 'none' && 'disable_parallel_tool_use' in choice) reject('tool_choice.none.disable_parallel_tool_use: Extra inputs are not permitted');
}

function checkThinking(body: Json, maxTokens: number): void {
  const thinking = body['thinking'];
  if (thinking === undefined) return;
  if (!isObject(thinking)) reject('thinking: Input should be a valid dictionary');
  if (thinking['type'] === 'disabled') return;
  if (thinking['type'] !== 'enabled') reject("thinking: Input tag does not match any of the expected tags: 'enabled', 'disabled'");
  const budget = thinking['budget_tokens'];
  if (typeof budget !== 'number' || !Number.isInteger(budget)) reject('thinking.enabled.budget_tokens: Field required');
  if (budget < 1024) reject('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  if (maxTokens <= budget) reject('`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size');
  if (body['temperature'] !== undefined && body['temperature'] !== 1) {
    reject('`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility');
  }
  if (typeof body['top_p'] === 'number' && body['top_p'] < 0.95) reject('`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled.');
  if (body['top_k'] !== undefined) reject('`top_k` must be unset when thinking is enabled.');
  const choice = body['tool_choice'];
  if (isObject(choice) && (choice['type'] === 'any' || choice['type'] === 'tool')) reject('Thinking may not be enabled when tool_choice forces tool use.');
}

function checkStopSequences(stop: unknown): void {
  if (stop === undefined) return;
  if (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string')) reject('stop_sequences: Input should be a valid list of strings');
  if (stop.some((s: string) => s.trim() === '')) reject('stop_sequences: each stop sequence must contain non-whitespace');
}

function checkMessagesRequest(req: RecordedRequest): Json {
  const type = header(req, 'content-type');
  if (type === undefined || !type.startsWith('application/json')) reject('Invalid request: content-type must be application/json');
  const body = req.json;
  if (!isObject(body)) reject('There was an issue with your request body: it is not a valid JSON object');
  for (const key of Object.keys(body)) if (!TOP_LEVEL_KEYS.has(key)) reject(`${key}: Extra inputs are not permitted`);
  if (typeof body['model'] !== 'string' || body['model'] === '') reject('model: Field required');
  const maxTokens = body['max_tokens'];
  if (maxTokens === undefined) reject('max_tokens: Field required');
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens)) reject('max_tokens: Input should be a valid integer');
  if (maxTokens < 1) reject('max_tokens: Input should be greater than or equal to 1');
  checkMessages(body['messages']);
  checkSystem(body['system']);
  checkRange(body, 'temperature', 0, 1);
  checkRange(body, 'top_p', 0, 1);
  checkStopSequences(body['stop_sequences']);
  if (body['metadata'] !== undefined && (!isObject(body['metadata']) || Object.keys(body['metadata']).some((k) => k !== 'user_id'))) {
    reject('metadata: only user_id is accepted');
  }
  checkToolChoice(body, checkTools(body));
  checkThinking(body, maxTokens);
  if (body['stream'] !== undefined && typeof body['stream'] !== 'boolean') reject('stream: Input should be a valid boolean');
  return body;
}

// ---- GET /v1/models ------------------------------------------------------------------------

interface ModelList {
  data: Array<{ id: string }>;
}

function modelPage(req: RecordedRequest, pageCap: number): Json {
  const query = new URL(req.url, 'http://mock').searchParams;
  const limit = Number(query.get('limit') ?? '20');
  if (!Number.isInteger(limit) || limit < 1) reject('limit: Input should be greater than or equal to 1');
  if (limit > 1000) reject('limit: Input should be less than or equal to 1000');
  const all = fixtureJson<ModelList>('anthropic/models.json').data;
  const after = query.get('after_id');
  const start = after === null ? 0 : all.findIndex((m) => m.id === after) + 1;
  if (start === 0 && after !== null) reject(`after_id: model '${after}' not found`, 404, 'not_found_error');
  const data = all.slice(start, start + Math.min(limit, pageCap));
  return { data, has_more: start + data.length < all.length, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}

// ---- the mock ------------------------------------------------------------------------------

/** Every route checks the credential headers first, and answers a refusal as Anthropic does. */
function strictly(handler: MockHandler): MockHandler {
  return async (req, res, raw) => {
    try {
      checkHeaders(req);
      await handler(req, res, raw);
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      sendJson(res, err.status, anthropicErrorBody(err.type, err.message));
    }
  };
}

export class AnthropicMock {
  readonly provider: MockProvider;
  /** Largest model page the mock serves whatever the limit asked (to exercise paging). */
  modelsPageCap = 1000;
  readonly #queue: AnthropicAnswer[] = [];

  private constructor(provider: MockProvider) {
    this.provider = provider;
    provider.on('POST', '/v1/messages', strictly((req, res) => this.#answer(checkMessagesRequest(req)['stream'] === true, res)));
    provider.on('GET', '/v1/models', strictly((req, res) => sendJson(res, 200, modelPage(req, this.modelsPageCap))));
  }

  static async start(): Promise<AnthropicMock> {
    return new AnthropicMock(await MockProvider.start());
  }

  /** `http://127.0.0.1:<port>`: Anthropic's base URL has no `/v1`. */
  get url(): string {
    return this.provider.url;
  }

  /** Script the answers to the next accepted /v1/messages calls, in order; the recorded ones otherwise. */
  answerWith(...next: AnthropicAnswer[]): void {
    this.#queue.push(...next);
  }

  /** The JSON body of the last request the mock received. */
  lastBody(): Json {
    const json = this.provider.last().json;
    if (!isObject(json)) throw new Error('the last request had no JSON object body');
    return json;
  }

  reset(): void {
    this.provider.reset();
    this.#queue.length = 0;
    this.modelsPageCap = 1000;
  }

  close(): Promise<void> {
    return this.provider.close();
  }

  async #answer(stream: boolean, res: ServerResponse): Promise<void> {
    const next = this.#queue.shift() ?? (stream ? answers.stream(DEFAULT_STREAM) : answers.message(DEFAULT_MESSAGE));
    if (next.kind === 'error') return sendJson(res, next.status, anthropicErrorBody(next.type, next.message));
    // A script that does not match the request is a broken test, not an Anthropic behaviour.
    if ((next.kind === 'stream') !== stream) throw new Error(`scripted a ${next.kind} answer for a request with stream: ${stream}`);
    if (next.kind === 'stream') return sendSse(res, next.events, next.delayMs);
    sendJson(res, 200, next.body);
  }
}
