// Command-line flags of `npm run bench -- ...`.
import { parseArgs } from 'node:util';
import { CALLERS, TARGET_IDS, type Caller, type TargetId } from './targets.js';

export interface BenchOptions {
  targets: TargetId[];
  /** Seconds of each measured wrk run and of each open-loop run. */
  durationSeconds: number;
  /** Seconds of the uncounted wrk run before each measured one. */
  warmupSeconds: number;
  /** Turns the measured wrk time of each target is split into, targets alternating. */
  rounds: number;
  jsonPath: string | null;
  configPath: string | null;
  /** The bearer token the load sends to Sluice; null: the master key. */
  apiKey: string | null;
  /** Who calls Sluice: the master key, or an API key the run creates first (the keys plugin's lookup on the path), bare or with a budget and rate limits. */
  caller: Caller;
  /** Fixed request rate of the latency measurement. */
  openLoopRate: number;
  connections: number;
}

export const USAGE = `usage: npm run bench -- [options]

  --targets <list>    comma-separated subset of ${TARGET_IDS.join(',')} (default: all)
  --duration <s>      seconds per measured wrk run and per open-loop run (default 10)
  --warmup <s>        seconds of uncounted wrk load before each measured run (default 2)
  --rounds <n>        split each target's measured wrk time into n turns, targets alternating (default 4)
  --rate <n>          open-loop request rate for the latency measurement (default 500)
  --connections <n>   wrk connections (default 50)
  --config <file>     passed to Sluice as GATEWAY_CONFIG
  --api-key <token>   the bearer token sent to Sluice (default: its master key), e.g. a key with limits
  --caller <who>      master (default); key: an API key created through /admin/keys calls Sluice;
                      limited-key: the same with a budget and rate limits no run reaches
  --json <file>       also write the results as JSON
  --help`;

function positive(name: string, raw: string, allowZero = false): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) throw new Error(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got '${raw}'`);
  return value;
}

/** wrk only takes whole seconds. */
function wholeSeconds(name: string, raw: string, allowZero = false): number {
  const value = positive(name, raw, allowZero);
  if (!Number.isInteger(value)) throw new Error(`--${name} must be a whole number of seconds, got '${raw}'`);
  return value;
}

function count(name: string, raw: string): number {
  const value = positive(name, raw);
  if (!Number.isInteger(value)) throw new Error(`--${name} must be a whole number, got '${raw}'`);
  return value;
}

function parseTargets(raw: string): TargetId[] {
  const wanted = raw.split(',').map((name) => name.trim()).filter((name) => name.length > 0);
  const unknown = wanted.filter((name) => !(TARGET_IDS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown target(s) ${unknown.join(', ')}; choose from ${TARGET_IDS.join(', ')}`);
  // Always in canonical order: the mock's latency is the baseline the others are compared to.
  return TARGET_IDS.filter((id) => wanted.includes(id));
}

function parseCaller(raw: string): Caller {
  if (!(CALLERS as readonly string[]).includes(raw)) throw new Error(`--caller must be one of ${CALLERS.join(', ')}, got '${raw}'`);
  return raw as Caller;
}

/** Returns null when --help was asked for. */
export function parseOptions(argv: string[]): BenchOptions | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      targets: { type: 'string', default: TARGET_IDS.join(',') },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '4' },
      rate: { type: 'string', default: '500' },
      connections: { type: 'string', default: '50' },
      config: { type: 'string' },
      'api-key': { type: 'string' },
      caller: { type: 'string', default: 'master' },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return null;
  const targets = parseTargets(values.targets);
  if (targets.length === 0) throw new Error('--targets selected nothing');
  return {
    targets,
    durationSeconds: wholeSeconds('duration', values.duration),
    warmupSeconds: wholeSeconds('warmup', values.warmup, true),
    rounds: count('rounds', values.rounds),
    jsonPath: values.json ?? null,
    configPath: values.config ?? null,
    apiKey: values['api-key'] ?? null,
    caller: parseCaller(values.caller),
    openLoopRate: positive('rate', values.rate),
    connections: Math.round(positive('connections', values.connections)),
  };
}
