// What a passthrough call records in ctx.locals, for the log stage (audit, metrics): where it
// went and how much of each body went through, kept or not.

export interface BodyRecord {
  /** Bytes that went through. */
  bytes: number;
  /** More went through than the capture limit kept (ctx.rawBody / ctx.responseBody hold the start). */
  truncated: boolean;
  /** The body ended cleanly (false when the call broke off first). */
  complete: boolean;
}

export interface PassthroughLocals {
  /** The provider URL the request went to. */
  url: URL;
  request: BodyRecord | null;
  /** Null when no response came from the provider. */
  response: BodyRecord | null;
}

declare module '../../core/context.js' {
  interface ContextLocals {
    passthrough?: PassthroughLocals;
  }
}
