// Test-only plugin, loaded by path after `tracing`: every finished span goes to an in-memory
// exporter at once (a simple processor, no batching), and each request's ctx.traceId is noted
// at the log stage, where the audit reads it.
import { fileURLToPath } from 'node:url';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { definePlugin } from '../../core/plugin.js';
import { ORDER } from '../../core/stages.js';

interface Captured {
  exporter: InMemorySpanExporter;
  /** Request id → the trace id its context carried at the log stage. */
  traceIds: Map<string, string | null>;
}

// Kept on globalThis: mocha loads test files through tsx's CommonJS path while the gateway
// imports plugins as ES modules, so this file runs twice and module state would be two.
const STORE = Symbol.for('sluice.test.memory-exporter');
const holder = globalThis as { [STORE]?: Captured };
export const captured: Captured = (holder[STORE] ??= { exporter: new InMemorySpanExporter(), traceIds: new Map() });

export const MEMORY_EXPORTER_ENTRY = { path: fileURLToPath(import.meta.url) };

export default definePlugin({
  name: 'memory-exporter',
  dependsOn: ['tracing'],
  setup(gw) {
    // One per gateway: a gateway's close shuts its exporter down for good.
    captured.exporter = new InMemorySpanExporter();
    gw.services.tracing!.addSpanProcessor(new SimpleSpanProcessor(captured.exporter));
    gw.stages.log.tap({ name: 'memory-exporter', stage: ORDER.LAST + 1 }, (ctx) => {
      captured.traceIds.set(ctx.id, ctx.traceId);
    });
  },
});
