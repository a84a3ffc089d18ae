// Reasoning levels sent upstream: the client's level, moved to the nearest one the model
// accepts (the catalog's `reasoning_efforts` for the model, else the endpoint's list), so that
// `max` on a model that tops out at `high` is `high` instead of the provider's 400, and a
// model that does not reason at all gets no level.
import { nearestEffort } from '../../core/reasoning-effort.js';
import type { Target } from '../../core/provider.js';
import type { OpenAIEndpoint } from './endpoint.js';

export function upstreamEffort(ep: OpenAIEndpoint, target: Target, effort: unknown): unknown {
  if (typeof effort !== 'string') return effort;
  // A model the catalog knows cannot reason answers 400 to any level: the wish is dropped.
  if ((target.metadata?.capabilities as { reasoning?: unknown } | undefined)?.reasoning === false) return undefined;
  const listed = target.metadata?.['reasoning_efforts'];
  return nearestEffort(effort, Array.isArray(listed) ? (listed as string[]) : ep.reasoningEfforts);
}

/** The Responses `reasoning` object with its effort moved the same way (a new object only when it changes). */
export function upstreamReasoning(ep: OpenAIEndpoint, target: Target, reasoning: unknown): unknown {
  if (typeof reasoning !== 'object' || reasoning === null) return reasoning;
  const effort = (reasoning as { effort?: unknown }).effort;
  const mapped = upstreamEffort(ep, target, effort);
  return mapped === effort ? reasoning : { ...reasoning, effort: mapped };
}
