// Google Gemini native REST wire shapes (generativelanguage.googleapis.com, v1beta), limited
// to the fields the translators read or write. JSON names are camelCase on the wire.

export type GeminiRole = 'user' | 'model';

export interface GeminiInlineData { mimeType: string; data: string }
export interface GeminiFileData { mimeType?: string; fileUri: string }

export interface GeminiFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  /** Set by the API on some models; echoed back in the matching functionResponse. */
  id?: string;
}

export interface GeminiFunctionResponse {
  name: string;
  response: Record<string, unknown>;
  id?: string;
}

export interface GeminiPart {
  text?: string;
  inlineData?: GeminiInlineData;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  /** True on thought-summary parts (only sent when thinkingConfig.includeThoughts is true). */
  thought?: boolean;
  /** Opaque reasoning state; Gemini 3 rejects a history whose functionCall parts lack it. */
  thoughtSignature?: string;
}

export interface GeminiContent {
  role?: GeminiRole;
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** JSON Schema form; mutually exclusive with the OpenAPI-subset `parameters` field. */
  parametersJsonSchema?: Record<string, unknown>;
}

export interface GeminiTool { functionDeclarations: GeminiFunctionDeclaration[] }

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

export interface GeminiToolConfig {
  functionCallingConfig: { mode: GeminiFunctionCallingMode; allowedFunctionNames?: string[] };
}

export type GeminiThinkingLevel = 'minimal' | 'low' | 'medium' | 'high';

/** thinkingBudget (2.5 models) and thinkingLevel (3.x models) are mutually exclusive: the API answers 400 to both. */
export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: GeminiThinkingLevel;
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  candidateCount?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
}

/** The body of models/{model}:generateContent and :streamGenerateContent (the model is in the URL). */
export interface GeminiGenerateRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
}

export type GeminiFinishReason =
  | 'FINISH_REASON_UNSPECIFIED' | 'STOP' | 'MAX_TOKENS' | 'SAFETY' | 'RECITATION' | 'LANGUAGE'
  | 'OTHER' | 'BLOCKLIST' | 'PROHIBITED_CONTENT' | 'SPII' | 'MALFORMED_FUNCTION_CALL'
  | 'IMAGE_SAFETY' | 'UNEXPECTED_TOOL_CALL' | 'TOO_MANY_TOOL_CALLS'
  | (string & {});

export interface GeminiCandidate {
  content?: GeminiContent;
  finishReason?: GeminiFinishReason;
  index?: number;
  [extra: string]: unknown;
}

export interface GeminiModalityTokenCount { modality: string; tokenCount?: number }

export interface GeminiUsageMetadata {
  /** Includes cachedContentTokenCount. */
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  /** The visible answer only: thought tokens are NOT included (see thoughtsTokenCount). */
  candidatesTokenCount?: number;
  toolUsePromptTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
  promptTokensDetails?: GeminiModalityTokenCount[];
  candidatesTokensDetails?: GeminiModalityTokenCount[];
  [extra: string]: unknown;
}

export interface GeminiPromptFeedback {
  blockReason?: string;
  [extra: string]: unknown;
}

/** The generateContent answer, and also each `data:` event of streamGenerateContent?alt=sse. */
export interface GeminiGenerateResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: GeminiPromptFeedback;
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

export interface GeminiEmbedContentRequest {
  /** "models/<name>": batchEmbedContents requires it on every request, matching the URL's model. */
  model: string;
  content: GeminiContent;
  outputDimensionality?: number;
}

export interface GeminiBatchEmbedRequest { requests: GeminiEmbedContentRequest[] }

export interface GeminiContentEmbedding { values: number[] }

/** batchEmbedContents answers `embeddings`; single embedContent answers `embedding`. Neither carries token counts. */
export interface GeminiEmbedResponse {
  embeddings?: GeminiContentEmbedding[];
  embedding?: GeminiContentEmbedding;
}

export interface GeminiModel {
  /** "models/<id>". */
  name: string;
  baseModelId?: string;
  version?: string;
  displayName?: string;
  description?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  supportedGenerationMethods?: string[];
  thinking?: boolean;
  [extra: string]: unknown;
}

export interface GeminiModelList {
  models?: GeminiModel[];
  nextPageToken?: string;
}

export interface GeminiErrorBody {
  error: {
    code?: number;
    message?: string;
    /** google.rpc.Code name, e.g. INVALID_ARGUMENT, RESOURCE_EXHAUSTED. */
    status?: string;
    details?: unknown[];
  };
}
