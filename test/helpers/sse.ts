// Reading a gateway's SSE answer as its events, the way a client sees them on the wire.
import { ChatStreamSink } from '../../core/stream/chat-format.js';
import { ChatChunkStream } from '../../core/stream/client-format-streams.js';
import { SseParser } from '../../core/stream/sse-parser.js';
import type { ChatCompletion } from '../../core/types/chat.js';
import { splitSse } from './mock-provider.js';

/** The `data:` payload of each event of a transcript (multi-line data joined with "\n"). */
export function sseData(transcript: string): string[] {
  return splitSse(transcript).map((event) =>
    event
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n'),
  );
}

/** Reads the whole body of an SSE response into its data payloads. */
export async function readSseData(res: Response): Promise<string[]> {
  return sseData(await res.text());
}

/** A chat stream folded event by event, as the translated relay folds it: the object its audit entry must hold. */
export function chatFoldedPerEvent(text: string): ChatCompletion {
  const parser = new SseParser();
  const translator = new ChatChunkStream('test');
  const sink = new ChatStreamSink(true);
  parser.feed(Buffer.from(text, 'utf8'), translator, sink);
  parser.end(translator, sink);
  return sink.result();
}
