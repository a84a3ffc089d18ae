// Reading a gateway's SSE answer as its events, the way a client sees them on the wire.
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
