/**
 * Requests at a fixed rate, whatever the answers' pace (an open loop, as
 * wrk2 or a fleet of clients drives a server), each request's latency timed
 * from the moment it was due, not from when it could be sent, so a stalled
 * server is charged for the requests that queued behind the stall (no
 * coordinated omission). A closed loop of c connections saturates the
 * server, and its latency is then c ÷ throughput by Little's law whatever
 * the server does; this shows the latency at a rate the server sustains.
 *
 * Run as its own process, pinned to the load core, so the bench's own event
 * loop neither delays the sends nor times the answers:
 *
 *   runOpenLoop({ url, paths, headers, rate, seconds, connections, core })
 *
 * GETs a random one of `paths` each time; answers { requests, rps, p50Ms,
 * p99Ms, maxMs, non2xx, errors }.
 */
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { spawnPinned } from './processes.mjs';

export async function runOpenLoop({ url, paths, headers = {}, rate, seconds, connections = 50, core }) {
  const child = spawnPinned(core, process.execPath, [fileURLToPath(import.meta.url)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  // By stdin: ten thousand paths are more than one environment variable holds.
  child.stdin.end(JSON.stringify({ url, paths, headers, rate, seconds, connections }));
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`open-loop load failed (${code}): ${child.outputTail}`);
  return JSON.parse(output.trim().split('\n').at(-1));
}

function percentile(sorted, p) {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * One keep-alive HTTP/1.1 connection that sends a GET once the last answer
 * is read: raw bytes on a socket, the answer read only as far as its length
 * (headers, then `content-length` bytes), so that the generator costs a few
 * microseconds a request and leaves the core to the server it measures.
 */
class Connection {
  constructor(origin, head) {
    this.head = head;
    this.socket = net.connect(Number(origin.port), origin.hostname);
    this.socket.setNoDelay(true);
    this.buffer = Buffer.alloc(0);
    this.current = undefined;
    this.socket.on('data', (chunk) => this.read(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  send(path, done) {
    this.current = { done, bodyLeft: -1, status: 0 };
    this.socket.write(`GET ${path} HTTP/1.1\r\n${this.head}\r\n`);
  }

  read(chunk) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const current = this.current;
    if (!current) return;
    if (current.bodyLeft < 0) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffer.toString('latin1', 0, end);
      current.status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!length) return this.fail(new Error('an answer without content-length'));
      current.bodyLeft = Number(length[1]);
      this.buffer = this.buffer.subarray(end + 4);
    }
    if (this.buffer.length < current.bodyLeft) return;
    this.buffer = this.buffer.subarray(current.bodyLeft);
    this.current = undefined;
    current.done(current.status);
  }

  fail(error) {
    const current = this.current;
    this.current = undefined;
    current?.done(0, error);
  }

  close() {
    this.socket.removeAllListeners('close');
    this.socket.destroy();
  }
}

async function generate({ url, paths, headers, rate, seconds, connections }) {
  const origin = new URL(url);
  const head = [`host: ${origin.host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), ''].join('\r\n');
  const idle = Array.from({ length: connections }, () => new Connection(origin, head));
  const all = [...idle];
  const waiting = [];
  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  const intervalMs = 1000 / rate;
  let sent = 0;
  let done = 0;
  let non2xx = 0;
  let errors = 0;
  const start = performance.now();
  await new Promise((finish) => {
    const dispatch = (connection, index) => {
      const scheduled = start + index * intervalMs;
      connection.send(paths[Math.floor(Math.random() * paths.length)], (status, error) => {
        latencies[index] = performance.now() - scheduled;
        if (error) errors++;
        else if (status >= 300) non2xx++;
        // A request that found every connection busy waits for the next free one, its clock running.
        if (waiting.length > 0) dispatch(connection, waiting.shift());
        else idle.push(connection);
        if (++done === total) finish();
      });
    };
    const send = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
      while (sent < due) {
        const index = sent++;
        const connection = idle.pop();
        if (connection) dispatch(connection, index);
        else waiting.push(index);
      }
      if (sent < total) setTimeout(send, Math.max(0, start + sent * intervalMs - performance.now()));
    };
    send();
  });
  const elapsedS = (performance.now() - start) / 1000;
  for (const connection of all) connection.close();
  const sorted = latencies.sort();
  const round = (ms) => Math.round(ms * 100) / 100;
  return { requests: total, rps: Math.round(total / elapsedS), p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)), maxMs: round(sorted[total - 1]), non2xx, errors };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let input = '';
  process.stdin.on('data', (chunk) => (input += chunk));
  await new Promise((resolve) => process.stdin.once('end', resolve));
  generate(JSON.parse(input)).then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error) => {
      process.stderr.write(`${error.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
