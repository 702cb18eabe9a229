/**
 * Reads @pydantic/genai-prices' provider list in a worker thread: the
 * package is half a megabyte of code that takes 60 to 150 ms to compile and
 * run, where its data as JSON parses in about 10 ms. So the gateway's own
 * thread only parses, and a request arriving meanwhile waits for nothing.
 * The thread's code is sent as source text, so the same code runs from the
 * TypeScript sources and the bundle; it is handed the package's resolved
 * entry, so it finds it wherever the gateway was started from.
 */
import { Worker } from 'node:worker_threads';
import type { Provider } from '@pydantic/genai-prices';

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.entry)
  .waitForUpdate()
  .then(
    (providers) => parentPort.postMessage({ json: JSON.stringify(providers ?? []) }),
    (error) => parentPort.postMessage({ error: String((error && error.message) || error) }),
  );
`;

/** What a read found, shared by every catalogue of the process (the data never changes while it runs). */
let read: Promise<Provider[]> | undefined;

/** The package's providers, read once per process by a thread of their own from the package entry at `entry`. */
export function readProvidersInThread(entry: string): Promise<Provider[]> {
  read ??= startThread(entry).catch((error: unknown) => {
    read = undefined;
    throw error;
  });
  return read;
}

function startThread(entry: string): Promise<Provider[]> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { entry } });
    // A gateway that closes meanwhile does not wait for it.
    worker.unref();
    worker.once('message', (message: { json?: string; error?: string }) => {
      settled = true;
      if (message.json === undefined) reject(new Error(`the price catalogue could not be read: ${message.error}`));
      else resolve(JSON.parse(message.json) as Provider[]);
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the price catalogue's reading thread stopped (exit code ${code})`));
    });
  });
}
