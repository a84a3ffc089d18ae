// The failover plugin's circuit breakers as a service, for whoever shows them (the audit
// plugin's GET /admin/providers): each target's state, read when asked. Provided only while
// the failover plugin is on; a reader treats its absence as "no breakers".

export interface BreakerState {
  state: 'closed' | 'open' | 'half-open';
  /** Consecutive failed calls counted since the target's last success. */
  failures: number;
  /** While open: when (ms since the epoch) the next call may probe the target; otherwise null. */
  until: number | null;
}

export interface TargetBreaker extends BreakerState {
  /** The target's model id, `<provider>/<model>`. */
  target: string;
  /** The provider instance it calls. */
  provider: string;
}

export interface BreakerService {
  /** The targets with a failure counted since their last success, by id; every other target is closed. Per process. */
  states(): TargetBreaker[];
}

declare module '../../core/plugin.js' {
  interface GatewayServices {
    breakers: BreakerService;
  }
}
