// The response object around the output: the fields a real response echoes from its request
// (so clients that read back their settings see them), and the status a chat finish reason
// amounts to. Nothing is stored, so `store` is always false and there is never a previous
// response.
import type { FinishReason } from '../../core/types/chat.js';
import type { ResponseObject, ResponsesOutputItem, ResponsesRequest, ResponsesUsage } from '../../core/types/responses.js';

export interface ResponseHead {
  id: string;
  created_at: number;
  /** The model as the provider named it in its answer. */
  model: string;
}

export interface Outcome {
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
}

export interface ResponseResult extends Outcome {
  completed_at: number | null;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
}

const COMPLETED: Outcome = Object.freeze({ status: 'completed', incomplete_details: null });

export function outcomeOf(finish: FinishReason | null): Outcome {
  if (finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return COMPLETED;
}

export function responseObject(req: ResponsesRequest, head: ResponseHead, result: ResponseResult | null): ResponseObject {
  return {
    id: head.id,
    object: 'response',
    created_at: head.created_at,
    status: result === null ? 'in_progress' : result.status,
    background: false,
    completed_at: result?.completed_at ?? null,
    error: null,
    incomplete_details: result?.incomplete_details ?? null,
    instructions: req.instructions ?? null,
    max_output_tokens: req.max_output_tokens ?? null,
    model: head.model,
    output: result?.output ?? [],
    parallel_tool_calls: req.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: req.reasoning?.effort ?? null, summary: req.reasoning?.summary ?? null },
    store: false,
    temperature: req.temperature ?? null,
    text: echoText(req.text),
    tool_choice: req.tool_choice ?? 'auto',
    tools: req.tools ?? [],
    top_p: req.top_p ?? null,
    truncation: req['truncation'] ?? 'disabled',
    usage: result?.usage ?? null,
    user: req.user ?? null,
    metadata: req.metadata ?? {},
  };
}

/** The text settings as a response shows them: the format (plain text unless asked), verbosity when asked. */
function echoText(text: ResponsesRequest['text']): Record<string, unknown> {
  const format = text?.format ?? { type: 'text' };
  const verbosity = (text as { verbosity?: unknown } | null | undefined)?.verbosity;
  return verbosity === undefined ? { format } : { format, verbosity };
}
