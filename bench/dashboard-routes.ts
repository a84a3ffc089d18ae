// The admin calls the dashboard makes, as it makes them (its page size, its default windows),
// timed one at a time over a filled store by `bench/audit-store.ts --routes`: each call `rounds`
// times in turn, after one call that starts the store's read worker (the sign-in's check).
const DAY = 86_400_000;
const HOUR = 3_600_000;

type Call = () => Promise<unknown>;

/** ISO 8601 of `ms` ago, to the minute, as the dashboard's time inputs send it. */
const ago = (ms: number): string => `${new Date(Date.now() - ms).toISOString().slice(0, 16)}:00Z`;

export async function timeDashboardRoutes(url: string, headers: Record<string, string>, rounds: number): Promise<Record<string, { min: number; median: number; max: number }>> {
  const get = async (path: string): Promise<unknown> => {
    const res = await fetch(url + path, { headers });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const first = (await get('/admin/audit?limit=1')) as { data: Array<{ id: string }> };
  const week = ago(7 * DAY);
  const calls: Record<string, Call> = {
    'audit: first page': () => get('/admin/audit?limit=50'),
    'audit: status=error': () => get('/admin/audit?status=error&limit=50'),
    'audit: key and model': () => get('/admin/audit?key=key_7&model=demo/model-7&limit=50'),
    'audit: label user:user-42': () => get('/admin/audit?label=user:user-42&limit=50'),
    'audit: q, a word in every body': () => get('/admin/audit?q=water&limit=50'),
    'audit: q=rare-marker (10 entries in 1,000,000)': () => get('/admin/audit?q=rare-marker&limit=50'),
    'audit: one entry': () => get(`/admin/audit/${first.data[0]!.id}`),
    'usage: model, 7 days': () => get(`/admin/usage?group_by=model&from=${week}`),
    'usage: label:user, 7 days': () => get(`/admin/usage?group_by=label:user&from=${week}`),
    // The Usage screen's cost over time (app/cost-over-time.ts): 7 days per hour, totals.
    'usage: cost over time, 7 days per hour': () => get(`/admin/usage?bucket=hour&from=${week}`),
    'providers: last hour': () => get('/admin/providers'),
    'providers: 24 hours': () => get(`/admin/providers?from=${ago(24 * HOUR)}`),
    'providers: 7 days': () => get(`/admin/providers?from=${week}`),
  };
  const out: Record<string, { min: number; median: number; max: number }> = {};
  for (const [name, call] of Object.entries(calls)) {
    const ms: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      await call();
      ms.push(performance.now() - started);
    }
    ms.sort((a, b) => a - b);
    const round = (x: number): number => Math.round(x * 10) / 10;
    out[name] = { min: round(ms[0]!), median: round(ms[Math.floor(ms.length / 2)]!), max: round(ms[ms.length - 1]!) };
  }
  return out;
}
