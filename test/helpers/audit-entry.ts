// An audit entry read back over the admin API, waiting for the log to have stored it.
import { waitFor } from './net.js';
import type { TestGateway } from './start-gateway.js';

export async function auditEntry<T>(gw: TestGateway, id: string): Promise<T> {
  let entry: Response | null = null;
  await waitFor(async () => (entry = await gw.fetch(`/admin/audit/${id}`)).status === 200, 3000, `the audit entry of ${id}`);
  return (await entry!.json()) as T;
}
