// An operator log that keeps its lines in memory, for tests that assert what the operator
// sees (a 500's cause) and that the console stays quiet.
import { Writable } from 'node:stream';
import winston from 'winston';
import type { Logger } from '../../core/logger.js';

export interface MemoryLogger {
  logger: Logger;
  lines: string[];
}

export function memoryLogger(level = 'info'): MemoryLogger {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8').trimEnd());
      done();
    },
  });
  const logger = winston.createLogger({
    level,
    format: winston.format.printf((info) => `${info.level} ${String(info.message)}`),
    transports: [new winston.transports.Stream({ stream: sink })],
  });
  return { logger, lines };
}
