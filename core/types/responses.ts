// OpenAI Responses API wire shapes (and those of `POST /v1/responses/compact`, docs/api.md).

export interface ResponsesContentPart {
  type: string; // input_text | input_image | input_file | input_audio | output_text | refusal
  text?: string;
  image_url?: string | { url: string; detail?: string; media_type?: string };
  detail?: string;
  file_data?: string;
  file_id?: string;
  file_url?: string;
  filename?: string;
  input_audio?: { data: string; format: string };
  annotations?: unknown[];
  [extra: string]: unknown;
}

export interface ResponsesInputItem {
  type?: string; // message (or empty) | function_call | function_call_output | reasoning
  id?: string;
  role?: 'system' | 'developer' | 'user' | 'assistant';
  content?: string | ResponsesContentPart[];
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: string | ResponsesContentPart[];
  status?: string;
  [extra: string]: unknown;
}

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  strict?: boolean;
}

export interface ResponsesRequest {
  model: string;
  input?: string | ResponsesInputItem[];
  instructions?: string | null;
  stream?: boolean;
  tools?: Array<ResponsesFunctionTool | { type: string; [k: string]: unknown }>;
  tool_choice?: string | { type: string; name?: string };
  temperature?: number;
  top_p?: number;
  max_output_tokens?: number | null;
  parallel_tool_calls?: boolean;
  reasoning?: { effort?: string; summary?: string | null } | null;
  text?: { format?: { type: string; name?: string; schema?: Record<string, unknown>; strict?: boolean } } | null;
  metadata?: Record<string, string>;
  store?: boolean;
  previous_response_id?: string | null;
  user?: string;
  [extra: string]: unknown;
}

export interface ResponsesOutputItem {
  id: string;
  type: string; // message | function_call | reasoning
  role?: 'assistant';
  status?: string;
  content?: ResponsesContentPart[];
  call_id?: string;
  name?: string;
  arguments?: string;
  summary?: Array<{ type: string; text: string }>;
  [extra: string]: unknown;
}

export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details?: { cached_tokens?: number; [k: string]: unknown };
  output_tokens_details?: { reasoning_tokens?: number; [k: string]: unknown };
  [extra: string]: unknown;
}

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: string; // completed | in_progress | incomplete | failed
  model: string;
  output: ResponsesOutputItem[];
  usage?: ResponsesUsage | null;
  error?: { code: string; message: string } | null;
  incomplete_details?: { reason: string } | null;
  [extra: string]: unknown;
}

/** One event of a Responses stream: `event: <type>` + `data: {type, sequence_number, ...}`. */
export interface ResponsesStreamEvent {
  type: string;
  sequence_number?: number;
  response?: ResponseObject;
  item?: ResponsesOutputItem;
  output_index?: number;
  content_index?: number;
  item_id?: string;
  delta?: string;
  [extra: string]: unknown;
}

export interface CompactRequest {
  model?: string;
  provider?: string;
  input?: string | ResponsesInputItem[];
  instructions?: string;
  [extra: string]: unknown;
}

export interface CompactResponse {
  id: string;
  object: string;
  created_at: number;
  provider?: string;
  metadata?: Record<string, string>;
  output: ResponsesOutputItem[];
  usage?: ResponsesUsage & { prompt_tokens_details?: Record<string, number>; completion_tokens_details?: Record<string, number>; raw_usage?: unknown };
  error?: { code: string; message: string };
}
