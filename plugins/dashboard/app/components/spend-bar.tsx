// A key's spend against its budget, as a meter (so screen readers read it as a fraction).
import type { ApiKey } from '../types.js';
import { formatUsd } from '../format.js';

export function SpendBar({ apiKey }: { apiKey: ApiKey }) {
  const spent = Number(apiKey.spend.amount_usd);
  if (apiKey.budget === null) return <span>{formatUsd(apiKey.spend.amount_usd)} (no budget)</span>;
  const budget = apiKey.budget.amount_usd;
  const text = `${formatUsd(apiKey.spend.amount_usd)} of ${formatUsd(budget)} ${apiKey.budget.period}`;
  return (
    <span class="spend">
      <meter min={0} max={budget} low={budget * 0.7} high={budget * 0.9} optimum={0} value={Math.min(spent, budget)} aria-label={`Spend: ${text}`} />
      <span>{text}</span>
    </span>
  );
}
