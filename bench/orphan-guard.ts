// Children of the harness exit on their own if the harness dies without cleaning up (SIGKILL,
// OOM), so a crashed run never leaves a server holding a port or a core. The harness also
// starts them under `setpriv --pdeathsig`; this covers machines without setpriv.
export function exitWhenOrphaned(): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, 1000);
  timer.unref();
}
