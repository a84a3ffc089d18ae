// Folds chat chunks, as they arrive, into the Responses event sequence OpenAI streams: one
// output item open at a time (reasoning, message, or one function call), each opened with
// output_item.added and its part events and closed with the matching done events before the
// next begins; then response.completed (or response.incomplete) with the whole response and
// its usage. It is the sink the provider's chat translator writes to.
import { providerFailed } from '../../core/errors.js';
import type { StreamSink } from '../../core/stream/translator.js';
import type { ChatCompletionChunk, ChatDelta, FinishReason, ToolCallDelta } from '../../core/types/chat.js';
import type { ResponsesContentPart, ResponsesOutputItem, ResponsesRequest, ResponsesStreamEvent } from '../../core/types/responses.js';
import type { Usage } from '../../core/types/usage.js';
import { itemId, nowSeconds, responseId } from './ids.js';
import { functionCallItem, messageItem, reasoningItem, textPart } from './output-items.js';
import type { ItemStatus, TextKind } from './output-items.js';
import { reasoningText } from './reasoning-text.js';
import { outcomeOf, responseObject } from './response-envelope.js';
import type { ResponseHead } from './response-envelope.js';
import { toResponsesUsage } from './responses-usage.js';
import * as events from './stream-events.js';

interface ReasoningState {
  kind: 'reasoning';
  id: string;
  outputIndex: number;
  text: string;
}

interface PartState {
  kind: TextKind;
  index: number;
  text: string;
}

interface MessageState {
  kind: 'message';
  id: string;
  outputIndex: number;
  /** Closed parts. */
  parts: ResponsesContentPart[];
  part: PartState | null;
}

interface CallState {
  kind: 'call';
  id: string;
  outputIndex: number;
  callId: string;
  name: string;
  args: string;
  /** output_item.added is sent once the name is surely complete: with the first arguments, or at the close. */
  added: boolean;
  closed: boolean;
}

type OpenItem = ReasoningState | MessageState | CallState;

export interface ResponsesStreamInit {
  /** The client's Responses request, echoed in the response object. */
  request: ResponsesRequest;
  /** The response's id token (ids.ts). */
  token: string;
  /** The provider's name, for errors. */
  provider: string;
  /** Unix seconds; tests fix it. */
  now?: () => number;
}

export class ResponsesStreamBuilder implements StreamSink<unknown> {
  /** Where the events go: the translator points it at the relay's sink before every call. */
  out: StreamSink<ResponsesStreamEvent> | null = null;
  readonly #request: ResponsesRequest;
  readonly #token: string;
  readonly #provider: string;
  readonly #now: () => number;
  #sequence = 0;
  #head: ResponseHead | null = null;
  readonly #output: ResponsesOutputItem[] = [];
  #open: OpenItem | null = null;
  readonly #calls = new Map<number, CallState>();
  /** Whether a message or a function call was produced. */
  #answered = false;
  #finish: FinishReason | null = null;
  #usage: Usage | null = null;

  constructor(init: ResponsesStreamInit) {
    this.#request = init.request;
    this.#token = init.token;
    this.#provider = init.provider;
    this.#now = init.now ?? nowSeconds;
  }

  /** One chat chunk from the provider's translator. */
  emit(value: unknown): void {
    const chunk = value as ChatCompletionChunk;
    if (this.#head === null) this.#start(typeof chunk.created === 'number' ? chunk.created : this.#now(), typeof chunk.model === 'string' ? chunk.model : this.#request.model);
    // Only one choice is ever asked for: Responses has no `n`.
    const choice = chunk.choices[0];
    if (choice === undefined) return;
    if (choice.delta !== undefined && choice.delta !== null) this.#delta(choice.delta);
    if (choice.finish_reason) this.#finish = choice.finish_reason;
  }

  usage(usage: Usage): void {
    this.#usage = usage;
    this.#sink().usage(usage);
  }

  /** The chat stream ended cleanly: close what is open and send the terminal event. */
  end(): void {
    if (this.#head === null) this.#start(this.#now(), this.#request.model);
    const outcome = outcomeOf(this.#finish);
    const lastStatus: ItemStatus = outcome.status === 'completed' ? 'completed' : 'incomplete';
    // An answer with neither text nor calls still gets its (empty) message, as OpenAI's does.
    if (!this.#answered) this.#openPart(this.#openMessage(), 'output_text');
    this.#closeOpen(lastStatus);
    const response = responseObject(this.#request, this.#head!, {
      status: outcome.status,
      incomplete_details: outcome.incomplete_details,
      completed_at: this.#now(),
      output: this.#output,
      usage: this.#usage === null ? null : toResponsesUsage(this.#usage),
    });
    this.#send(events.lifecycle(outcome.status === 'completed' ? 'response.completed' : 'response.incomplete', response));
  }

  #start(createdAt: number, model: string): void {
    const head: ResponseHead = { id: responseId(this.#token), created_at: createdAt, model };
    this.#head = head;
    this.#send(events.lifecycle('response.created', responseObject(this.#request, head, null)));
    this.#send(events.lifecycle('response.in_progress', responseObject(this.#request, head, null)));
  }

  #delta(delta: ChatDelta): void {
    const reasoning = reasoningText(delta);
    if (reasoning !== '') this.#reasoning(reasoning);
    if (typeof delta.content === 'string' && delta.content !== '') this.#text('output_text', delta.content);
    if (typeof delta.refusal === 'string' && delta.refusal !== '') this.#text('refusal', delta.refusal);
    const calls = delta.tool_calls;
    if (calls) for (const call of calls) this.#toolCall(call);
  }

  #send(event: ResponsesStreamEvent): void {
    event.sequence_number = this.#sequence++;
    this.#sink().emit(event);
  }

  #sink(): StreamSink<ResponsesStreamEvent> {
    if (this.out === null) throw new Error('ResponsesStreamBuilder used before its sink was set');
    return this.out;
  }

  #closeOpen(status: ItemStatus): void {
    const open = this.#open;
    if (open === null) return;
    if (open.kind === 'reasoning') this.#closeReasoning(open);
    else if (open.kind === 'message') this.#closeMessage(open, status);
    else this.#closeCall(open, status);
  }

  #finishItem(item: ResponsesOutputItem, outputIndex: number): void {
    this.#send(events.itemDone(item, outputIndex));
    this.#output.push(item);
    this.#open = null;
  }

  #reasoning(text: string): void {
    let open = this.#open;
    if (open?.kind !== 'reasoning') {
      this.#closeOpen('completed');
      open = this.#openReasoning();
    }
    open.text += text;
    this.#send(events.summaryTextDelta(open.id, open.outputIndex, text));
  }

  #openReasoning(): ReasoningState {
    const outputIndex = this.#output.length;
    const state: ReasoningState = { kind: 'reasoning', id: itemId('rs', this.#token, outputIndex), outputIndex, text: '' };
    this.#open = state;
    this.#send(events.itemAdded(reasoningItem(state.id, ''), outputIndex));
    this.#send(events.summaryPartAdded(state.id, outputIndex));
    return state;
  }

  #closeReasoning(state: ReasoningState): void {
    this.#send(events.summaryTextDone(state.id, state.outputIndex, state.text));
    this.#send(events.summaryPartDone(state.id, state.outputIndex, state.text));
    this.#finishItem(reasoningItem(state.id, state.text), state.outputIndex);
  }

  #text(kind: TextKind, text: string): void {
    let message = this.#open;
    if (message?.kind !== 'message') {
      this.#closeOpen('completed');
      message = this.#openMessage();
    }
    let part = message.part;
    if (part === null || part.kind !== kind) {
      if (part !== null) this.#closePart(message, part);
      part = this.#openPart(message, kind);
    }
    part.text += text;
    this.#send(events.textDelta(kind, message.id, message.outputIndex, part.index, text));
  }

  #openMessage(): MessageState {
    this.#answered = true;
    const outputIndex = this.#output.length;
    const state: MessageState = { kind: 'message', id: itemId('msg', this.#token, outputIndex), outputIndex, parts: [], part: null };
    this.#open = state;
    this.#send(events.itemAdded(messageItem(state.id, [], 'in_progress'), outputIndex));
    return state;
  }

  #openPart(message: MessageState, kind: TextKind): PartState {
    const part: PartState = { kind, index: message.parts.length, text: '' };
    message.part = part;
    this.#send(events.partAdded(message.id, message.outputIndex, part.index, kind));
    return part;
  }

  #closePart(message: MessageState, part: PartState): void {
    this.#send(events.textDone(part.kind, message.id, message.outputIndex, part.index, part.text));
    const done = textPart(part.kind, part.text);
    this.#send(events.partDone(message.id, message.outputIndex, part.index, done));
    message.parts.push(done);
    message.part = null;
  }

  #closeMessage(message: MessageState, status: ItemStatus): void {
    if (message.part !== null) this.#closePart(message, message.part);
    this.#finishItem(messageItem(message.id, message.parts, status), message.outputIndex);
  }

  #toolCall(delta: ToolCallDelta): void {
    const name = delta.function?.name ?? '';
    const args = delta.function?.arguments ?? '';
    let call = this.#calls.get(delta.index);
    if (call === undefined) {
      this.#closeOpen('completed');
      call = this.#newCall(delta.index, delta.id ?? '', name);
    } else if (call.closed) {
      // Calls stream one after another everywhere we know; a late piece of a closed call
      // cannot be put back into events already sent.
      if (name !== '' || args !== '') throw providerFailed(this.#provider, `provider '${this.#provider}' streamed more of tool call ${delta.index} after the next output had begun`);
      return;
    } else {
      if (delta.id) call.callId = delta.id;
      call.name += name;
    }
    if (args === '') return;
    if (!call.added) this.#addCall(call);
    call.args += args;
    this.#send(events.argumentsDelta(call.id, call.outputIndex, args));
  }

  #newCall(index: number, callId: string, name: string): CallState {
    this.#answered = true;
    const outputIndex = this.#output.length;
    const call: CallState = { kind: 'call', id: itemId('fc', this.#token, outputIndex), outputIndex, callId, name, args: '', added: false, closed: false };
    this.#calls.set(index, call);
    this.#open = call;
    return call;
  }

  #addCall(call: CallState): void {
    call.added = true;
    this.#send(events.itemAdded(functionCallItem(call.id, call.callId, call.name, '', 'in_progress'), call.outputIndex));
  }

  #closeCall(call: CallState, status: ItemStatus): void {
    if (!call.added) this.#addCall(call);
    this.#send(events.argumentsDone(call.id, call.outputIndex, call.name, call.args));
    call.closed = true;
    this.#finishItem(functionCallItem(call.id, call.callId, call.name, call.args, status), call.outputIndex);
  }
}
