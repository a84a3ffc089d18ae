// A strict local stand-in for Gemini's native REST API (generativelanguage.googleapis.com,
// v1beta). Before answering, it rejects what the real API rejects, with Google's error shape
// ({error: {code, message, status}}) and Google's wording where it is known: a missing or wrong
// x-goog-api-key, a bearer token, unknown fields, roles other than user/model, empty parts,
// a functionResponse without a name or not right after its functionCall turn, a Gemini 3 call
// history without its thought signature, both thinking controls at once, more than 100
// embedding requests. It also rejects a key in the URL, which Google accepts but Sluice must
// never send (URLs end up in logs). It answers with the fixtures of test/fixtures/gemini-native.
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixtureJson, fixtureText } from './fixtures.js';
import { MockProvider, sendJson } from './mock-provider.js';
import type { RecordedRequest } from './mock-provider.js';

export const GEMINI_KEY = 'k';

/** Models the mock serves (its paths are exact, so each model gets its own routes). */
export const MOCK_MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-3-flash-preview', 'gemini-embedding-001'] as const;

/** What the next model call answers: a JSON body, or an SSE transcript sent event by event as written, `gapMs` apart. */
export type GeminiAnswer = { json: unknown; status?: number; headers?: Record<string, string> } | { sse: string; gapMs?: number };

export function nativeJson(name: string): unknown {
  return fixtureJson<unknown>(`gemini-native/${name}`);
}

export function nativeText(name: string): string {
  return fixtureText(`gemini-native/${name}`);
}

interface Rejection {
  code: number;
  status: string;
  message: string;
  /** A whole error body, when a fixture holds the real one. */
  body?: unknown;
}

const invalid = (message: string): Rejection => ({ code: 400, status: 'INVALID_ARGUMENT', message });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownField(value: Record<string, unknown>, known: ReadonlySet<string>, at: string): Rejection | null {
  const name = Object.keys(value).find((k) => !known.has(k));
  if (name === undefined) return null;
  return invalid(`Invalid JSON payload received. Unknown name "${name}"${at === '' ? '' : ` at '${at}'`}: Cannot find field.`);
}

// ---- credentials -------------------------------------------------------------------------

function credentialRejection(req: RecordedRequest): Rejection | null {
  if (new URL(req.url, 'http://mock').searchParams.has('key')) {
    return invalid('mock: the API key was sent in the URL (?key=); Sluice must send it in x-goog-api-key only');
  }
  // Google reads a bearer token as OAuth and fails it; a client's gateway key must never get here.
  if (req.headers['authorization'] !== undefined) {
    return { code: 401, status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.' };
  }
  const key = req.headers['x-goog-api-key'];
  if (key === undefined) {
    return { code: 403, status: 'PERMISSION_DENIED', message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API." };
  }
  if (key !== GEMINI_KEY) return { code: 400, status: 'INVALID_ARGUMENT', message: 'API key not valid. Please pass a valid API key.', body: nativeJson('error-400-api-key.json') };
  return null;
}

// ---- generateContent bodies ------------------------------------------------------------------

const REQUEST_FIELDS = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'safetySettings', 'cachedContent']);
const CONTENT_FIELDS = new Set(['role', 'parts']);
const PART_DATA = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult'];
const PART_FIELDS = new Set([...PART_DATA, 'thought', 'thoughtSignature', 'videoMetadata']);
const GENERATION_FIELDS = new Set([
  'temperature', 'topP', 'topK', 'maxOutputTokens', 'stopSequences', 'candidateCount', 'presencePenalty', 'frequencyPenalty',
  'seed', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'thinkingConfig', 'responseLogprobs', 'logprobs',
  'responseModalities', 'mediaResolution', 'speechConfig',
]);
const THINKING_FIELDS = new Set(['thinkingBudget', 'thinkingLevel', 'includeThoughts']);
const DECLARATION_FIELDS = new Set(['name', 'description', 'parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema', 'behavior']);

function partRejection(part: unknown, at: string): Rejection | null {
  if (!isRecord(part)) return invalid(`Invalid value at '${at}': must be an object`);
  const unknown = unknownField(part, PART_FIELDS, at);
  if (unknown) return unknown;
  const data = PART_DATA.filter((k) => part[k] !== undefined);
  if (data.length === 0) return invalid(`* GenerateContentRequest.${at}.data: required oneof field 'data' must have one initialized field\n`);
  if (data.length > 1) return invalid(`Invalid JSON payload received. Oneof field 'data' is already set. Cannot set '${data[1]!}'`);
  const call = part['functionCall'];
  if (call !== undefined && (!isRecord(call) || typeof call['name'] !== 'string' || call['name'] === '')) {
    return invalid(`* GenerateContentRequest.${at}.function_call.name: Name cannot be empty.\n`);
  }
  const response = part['functionResponse'];
  if (response !== undefined && (!isRecord(response) || typeof response['name'] !== 'string' || response['name'] === '')) {
    return invalid(`* GenerateContentRequest.${at}.function_response.name: Name cannot be empty.\n`);
  }
  const inline = part['inlineData'];
  if (inline !== undefined && (!isRecord(inline) || typeof inline['mimeType'] !== 'string' || typeof inline['data'] !== 'string' || inline['data'] === '')) {
    return invalid(`* GenerateContentRequest.${at}.inline_data: mime_type and data are required\n`);
  }
  return null;
}

function contentRejection(content: unknown, at: string, roleRequired: boolean): Rejection | null {
  if (!isRecord(content)) return invalid(`Invalid value at '${at}': must be an object`);
  const unknown = unknownField(content, CONTENT_FIELDS, at);
  if (unknown) return unknown;
  const role = content['role'];
  if ((roleRequired || role !== undefined) && role !== 'user' && role !== 'model') return invalid('Please use a valid role: user, model.');
  const parts = content['parts'];
  if (!Array.isArray(parts) || parts.length === 0) return invalid(`* GenerateContentRequest.${at}.parts: contents.parts must not be empty.\n`);
  for (let j = 0; j < parts.length; j++) {
    const rejected = partRejection(parts[j], `${at}.parts[${j}]`);
    if (rejected) return rejected;
  }
  return null;
}

function partsOf(content: unknown): Array<Record<string, unknown>> {
  return isRecord(content) && Array.isArray(content['parts']) ? content['parts'].filter(isRecord) : [];
}

// A turn of function responses answers the model turn right before it, one response per call.
function pairingRejection(contents: unknown[]): Rejection | null {
  for (let i = 0; i < contents.length; i++) {
    const responses = partsOf(contents[i]).filter((p) => p['functionResponse'] !== undefined).length;
    if (responses === 0) continue;
    const previous = contents[i - 1];
    const calls = partsOf(previous).filter((p) => p['functionCall'] !== undefined).length;
    if (!isRecord(previous) || previous['role'] !== 'model' || calls === 0) {
      return invalid('Please ensure that function response turn comes immediately after a function call turn.');
    }
    if (calls !== responses) {
      return invalid('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
    }
  }
  return null;
}

// Gemini 3 checks the current turn (after the last user message with text): the first function
// call of each of its model steps must carry the signature the API gave it.
function signatureRejection(model: string, contents: unknown[]): Rejection | null {
  if (!model.startsWith('gemini-3')) return null;
  let start = 0;
  contents.forEach((c, i) => {
    if (isRecord(c) && c['role'] === 'user' && partsOf(c).some((p) => typeof p['text'] === 'string')) start = i + 1;
  });
  for (let i = start; i < contents.length; i++) {
    const first = partsOf(contents[i]).find((p) => p['functionCall'] !== undefined);
    if (first !== undefined && typeof first['thoughtSignature'] !== 'string') {
      const name = isRecord(first['functionCall']) ? String(first['functionCall']['name']) : '?';
      return invalid(`Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`);
    }
  }
  return null;
}

function generationRejection(config: unknown): Rejection | null {
  if (config === undefined) return null;
  if (!isRecord(config)) return invalid("Invalid value at 'generation_config': must be an object");
  const unknown = unknownField(config, GENERATION_FIELDS, 'generation_config');
  if (unknown) return unknown;
  const stops = config['stopSequences'];
  if (Array.isArray(stops) && stops.length > 5) return invalid('* GenerateContentRequest.generation_config.stop_sequences: at most 5 stop sequences are allowed\n');
  if (config['responseJsonSchema'] !== undefined && config['responseSchema'] !== undefined) {
    return invalid('responseJsonSchema and responseSchema cannot both be set.');
  }
  if (config['responseJsonSchema'] !== undefined && config['responseMimeType'] !== 'application/json') {
    return invalid('* GenerateContentRequest.generation_config.response_mime_type: responseMimeType must be application/json when a response schema is set.\n');
  }
  const thinking = config['thinkingConfig'];
  if (thinking === undefined) return null;
  if (!isRecord(thinking)) return invalid("Invalid value at 'generation_config.thinking_config': must be an object");
  const unknownThinking = unknownField(thinking, THINKING_FIELDS, 'generation_config.thinking_config');
  if (unknownThinking) return unknownThinking;
  if (thinking['thinkingBudget'] !== undefined && thinking['thinkingLevel'] !== undefined) {
    const body = nativeJson('error-400-argument.json');
    return { ...invalid('Unable to submit request because thinking_budget and thinking_level are not supported together.'), body };
  }
  return null;
}

function toolsRejection(tools: unknown, toolConfig: unknown): Rejection | null {
  if (tools !== undefined) {
    if (!Array.isArray(tools)) return invalid("Invalid value at 'tools': must be a list");
    for (const [t, tool] of tools.entries()) {
      const declarations = isRecord(tool) ? tool['functionDeclarations'] : undefined;
      if (!Array.isArray(declarations)) continue;
      for (const [d, declaration] of declarations.entries()) {
        const at = `tools[${t}].function_declarations[${d}]`;
        if (!isRecord(declaration)) return invalid(`Invalid value at '${at}': must be an object`);
        const unknown = unknownField(declaration, DECLARATION_FIELDS, at);
        if (unknown) return unknown;
        if (typeof declaration['name'] !== 'string' || declaration['name'] === '') return invalid(`* GenerateContentRequest.${at}.name: Name cannot be empty.\n`);
        if (declaration['parameters'] !== undefined && declaration['parametersJsonSchema'] !== undefined) {
          return invalid(`* GenerateContentRequest.${at}: parameters and parameters_json_schema cannot both be set.\n`);
        }
      }
    }
  }
  const mode = isRecord(toolConfig) && isRecord(toolConfig['functionCallingConfig']) ? toolConfig['functionCallingConfig']['mode'] : undefined;
  if (mode !== undefined && !['AUTO', 'ANY', 'NONE', 'VALIDATED'].includes(String(mode))) {
    return invalid(`Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), "${String(mode)}"`);
  }
  return null;
}

function generateRejection(model: string, body: unknown): Rejection | null {
  if (!isRecord(body)) return invalid('Invalid JSON payload received. Expected an object.');
  const unknown = unknownField(body, REQUEST_FIELDS, '');
  if (unknown) return unknown;
  const contents = body['contents'];
  if (!Array.isArray(contents) || contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified\n');
  for (let i = 0; i < contents.length; i++) {
    const rejected = contentRejection(contents[i], `contents[${i}]`, true);
    if (rejected) return rejected;
  }
  if (body['systemInstruction'] !== undefined) {
    const rejected = contentRejection(body['systemInstruction'], 'system_instruction', false);
    if (rejected) return rejected;
  }
  return pairingRejection(contents) ?? signatureRejection(model, contents) ?? generationRejection(body['generationConfig']) ?? toolsRejection(body['tools'], body['toolConfig']);
}

// ---- batchEmbedContents ------------------------------------------------------------------

const EMBED_FIELDS = new Set(['model', 'content', 'taskType', 'title', 'outputDimensionality']);

function embedRejection(model: string, body: unknown): Rejection | null {
  if (!isRecord(body)) return invalid('Invalid JSON payload received. Expected an object.');
  const unknown = unknownField(body, new Set(['requests']), '');
  if (unknown) return unknown;
  const requests = body['requests'];
  if (!Array.isArray(requests) || requests.length === 0) return invalid('* BatchEmbedContentsRequest.requests: requests is not specified\n');
  if (requests.length > 100) return invalid('* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch\n');
  for (let i = 0; i < requests.length; i++) {
    const r: unknown = requests[i];
    if (!isRecord(r)) return invalid(`Invalid value at 'requests[${i}]': must be an object`);
    const unknownInner = unknownField(r, EMBED_FIELDS, `requests[${i}]`);
    if (unknownInner) return unknownInner;
    if (r['model'] !== `models/${model}`) {
      return invalid(`* BatchEmbedContentsRequest.requests[${i}].model: the model of each request must be the model of the call (models/${model})\n`);
    }
    const rejected = contentRejection(r['content'], `requests[${i}].content`, false);
    if (rejected) return rejected;
  }
  return null;
}

/** The vector the mock gives a text it has no fixture for: deterministic, `dims` long. */
export function mockVector(text: string, dims = 8): number[] {
  let seed = 0;
  for (const ch of text) seed = (seed * 31 + ch.codePointAt(0)!) % 100_003;
  return Array.from({ length: dims }, (_, i) => Math.round(Math.sin(seed + i) * 1e4) / 1e4);
}

interface EmbedFixture {
  requests: Array<{ content: { parts: Array<{ text: string }> } }>;
}

function embedAnswer(body: Record<string, unknown>): unknown {
  const fixtureTexts = (nativeJson('batch-embed-request.json') as EmbedFixture).requests.map((r) => r.content.parts[0]!.text);
  const fixtureValues = (nativeJson('batch-embed-response.json') as { embeddings: Array<{ values: number[] }> }).embeddings;
  const requests = body['requests'] as Array<{ content: { parts: Array<{ text?: string }> }; outputDimensionality?: number }>;
  return {
    embeddings: requests.map((r) => {
      const text = r.content.parts.map((p) => p.text ?? '').join('');
      const known = fixtureTexts.indexOf(text);
      return { values: known >= 0 ? fixtureValues[known]!.values : mockVector(text, r.outputDimensionality ?? 8) };
    }),
  };
}

// ---- models.list -------------------------------------------------------------------------

const PAGE_TWO_TOKEN = (nativeJson('models-list.json') as { nextPageToken: string }).nextPageToken;

function listAnswer(req: RecordedRequest): { status: number; body: unknown } {
  const query = new URL(req.url, 'http://mock').searchParams;
  const size = query.get('pageSize');
  if (size !== null && !/^\d+$/.test(size)) return { status: 400, body: googleError(invalid(`Invalid value at 'page_size' (TYPE_INT32), "${size}"`)) };
  const token = query.get('pageToken');
  if (token === null) return { status: 200, body: nativeJson('models-list.json') };
  if (token === PAGE_TWO_TOKEN) return { status: 200, body: nativeJson('models-list-page2.json') };
  return { status: 400, body: googleError(invalid('Invalid page token.')) };
}

// ---- the server --------------------------------------------------------------------------

function googleError(r: Rejection): unknown {
  return r.body ?? { error: { code: r.code, message: r.message, status: r.status } };
}

function reject(res: ServerResponse, r: Rejection): void {
  sendJson(res, r.code, googleError(r));
}

// Gemini's events come apart in time (the model generates between them); spacing them keeps
// one event per read on the gateway's side, as in production.
const EVENT_GAP_MS = 10;

/** An SSE transcript written event by event, exactly as in the fixture (CRLF kept). */
async function sendTranscript(res: ServerResponse, transcript: string, gapMs = EVENT_GAP_MS): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of transcript.split(/(?<=\r?\n\r?\n)/)) {
    if (res.destroyed) return;
    res.write(event);
    await sleep(gapMs);
  }
  res.end();
}

type Method = 'generateContent' | 'streamGenerateContent' | 'batchEmbedContents';

export class GeminiMock {
  readonly server: MockProvider;
  readonly #answers: GeminiAnswer[] = [];

  private constructor(server: MockProvider) {
    this.server = server;
  }

  static async start(): Promise<GeminiMock> {
    const mock = new GeminiMock(await MockProvider.start());
    for (const model of MOCK_MODELS) {
      for (const method of ['generateContent', 'streamGenerateContent', 'batchEmbedContents'] as const) {
        mock.server.on('POST', `/v1beta/models/${model}:${method}`, (req, res) => mock.#modelCall(model, method, req, res));
      }
    }
    mock.server.on('GET', '/v1beta/models', (req, res) => {
      const rejected = credentialRejection(req);
      if (rejected) return reject(res, rejected);
      const { status, body } = listAnswer(req);
      sendJson(res, status, body);
    });
    return mock;
  }

  get url(): string {
    return this.server.url;
  }

  get requests(): RecordedRequest[] {
    return this.server.requests;
  }

  /** The last model call (generate, stream or embed), leaving out model-list discovery. */
  lastCall(): RecordedRequest {
    const calls = this.server.requests.filter((r) => r.method === 'POST');
    const last = calls[calls.length - 1];
    if (last === undefined) throw new Error('the Gemini mock received no model call');
    return last;
  }

  /** Queue what the next model call that passes the checks answers (default: the thinking fixtures). */
  answerNext(answer: GeminiAnswer): this {
    this.#answers.push(answer);
    return this;
  }

  reset(): void {
    this.server.reset();
    this.#answers.length = 0;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  async #modelCall(model: string, method: Method, req: RecordedRequest, res: ServerResponse): Promise<void> {
    const rejected = credentialRejection(req)
      ?? (req.headers['content-type']?.startsWith('application/json') ? null : invalid('mock: the body must be sent as application/json'))
      ?? (method === 'streamGenerateContent' && new URL(req.url, 'http://mock').searchParams.get('alt') !== 'sse'
        ? invalid('mock: streamGenerateContent without ?alt=sse answers a JSON array, not SSE')
        : null)
      ?? (method === 'batchEmbedContents' ? embedRejection(model, req.json) : generateRejection(model, req.json));
    if (rejected) return reject(res, rejected);
    const answer = this.#answers.shift();
    if (answer !== undefined) {
      if ('sse' in answer) return sendTranscript(res, answer.sse, answer.gapMs);
      if (answer.headers) for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      return sendJson(res, answer.status ?? 200, answer.json);
    }
    if (method === 'batchEmbedContents') return sendJson(res, 200, embedAnswer(req.json as Record<string, unknown>));
    if (method === 'streamGenerateContent') return sendTranscript(res, nativeText('stream-thinking.txt'));
    sendJson(res, 200, nativeJson('generate-content-thinking.json'));
  }
}
