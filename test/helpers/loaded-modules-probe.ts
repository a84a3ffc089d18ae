// Preloaded into a gateway child process (`node --import tsx --import <this file> core/main.ts`
// with an IPC channel): any message is answered with the files of the CommonJS modules the
// main thread has loaded, which is how the packages the gateway depends on arrive.
import { createRequire } from 'node:module';

const cache = createRequire(import.meta.url).cache;

process.on('message', () => {
  process.send!(Object.keys(cache));
});
