// Rate limits counted in this process: for one gateway, or replicas that each enforce their own share.
import { refusal } from './limiter.js';
import type { Admission, RateLimiter, RateScope, ScopeCounts } from './limiter.js';
import { WINDOW_MS } from './sliding-window.js';

interface ScopeState {
  window: number;
  requests: { prev: number; curr: number };
  tokens: { prev: number; curr: number };
  inFlight: number;
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #states = new Map<string, ScopeState>();
  readonly #sweep: NodeJS.Timeout;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    // A scope idle for two windows holds nothing: dropping it keeps the map to active scopes.
    this.#sweep = setInterval(() => this.#forgetIdle(), WINDOW_MS).unref();
  }

  admit(scopes: readonly RateScope[], _requestId: string, tokens: number): Admission {
    const now = this.#now();
    const window = Math.floor(now / WINDOW_MS);
    const elapsed = now - window * WINDOW_MS;
    const states = scopes.map((s) => this.#state(s.id, window));
    const counts: ScopeCounts[] = states.map((s) => ({ requests: { ...s.requests }, tokens: { ...s.tokens }, inFlight: s.inFlight }));
    for (let i = 0; i < scopes.length; i++) {
      const why = refusal(scopes[i]!, counts[i]!, elapsed);
      if (why !== null) return { refusedScope: i, refusal: why, window, elapsed, counts };
    }
    for (const state of states) {
      state.requests.curr += 1;
      state.tokens.curr += tokens;
      state.inFlight += 1;
    }
    return { refusedScope: -1, refusal: null, window, elapsed, counts };
  }

  settle(scopes: readonly RateScope[], _requestId: string, window: number, tokenDelta: number): void {
    for (const scope of scopes) {
      const state = this.#states.get(scope.id);
      if (state === undefined) continue;
      state.inFlight -= 1;
      // The correction goes to the window the estimate was counted in, while it still counts.
      if (state.window === window) state.tokens.curr = Math.max(0, state.tokens.curr + tokenDelta);
      else if (state.window === window + 1) state.tokens.prev = Math.max(0, state.tokens.prev + tokenDelta);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
  }

  #state(id: string, window: number): ScopeState {
    let state = this.#states.get(id);
    if (state === undefined) {
      state = { window, requests: { prev: 0, curr: 0 }, tokens: { prev: 0, curr: 0 }, inFlight: 0 };
      this.#states.set(id, state);
    } else if (state.window !== window) {
      const next = state.window + 1 === window;
      state.requests = { prev: next ? state.requests.curr : 0, curr: 0 };
      state.tokens = { prev: next ? state.tokens.curr : 0, curr: 0 };
      state.window = window;
    }
    return state;
  }

  #forgetIdle(): void {
    const window = Math.floor(this.#now() / WINDOW_MS);
    for (const [id, state] of this.#states) if (state.inFlight === 0 && state.window < window - 1) this.#states.delete(id);
  }
}
