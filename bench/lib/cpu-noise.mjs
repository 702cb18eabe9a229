/**
 * How busy the machine was with work that is not the benchmark's own, per
 * measurement: CPU time of the whole machine (/proc/stat) minus the CPU time
 * of this process, its reaped children and the live processes it names.
 * On a shared 2-core machine this tells a clean number from a disturbed one.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
  const busy = user + nice + system + irq + softirq + (steal ?? 0);
  return { busy, total: busy + idle + (iowait ?? 0) };
}

/** utime + stime (+ cutime + cstime: children already reaped) of one process, in ticks. */
function processTicks(pid, withChildren) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // Fields after the command name start at field 3 (state): utime is field 14.
    const [utime, stime, cutime, cstime] = fields.slice(11, 15);
    return utime + stime + (withChildren ? cutime + cstime : 0);
  } catch {
    return 0;
  }
}

/** CPU time (user + system) a live process has used so far, in ms; NaN when unreadable. */
export function cpuTimeMs(pid) {
  try {
    readFileSync(`/proc/${pid}/stat`);
  } catch {
    return NaN;
  }
  return (processTicks(pid, false) * 1000) / ticksPerSecond;
}

/** The kernel's part (stime) of a live process's CPU time, in ms; NaN when unreadable. */
export function systemTimeMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
}

/** CPU time of this process and of its children already reaped (a finished wrk, say), in ms. */
export function ownCpuMs() {
  return (processTicks('self', true) * 1000) / ticksPerSecond;
}

function ownTicks(pids) {
  let ticks = processTicks('self', true);
  for (const pid of pids()) if (pid) ticks += processTicks(pid, false);
  return ticks;
}

/** Starts a window; `stop()` gives the percentage of all CPU time used by other processes. */
export function cpuWindow(pids) {
  let available = true;
  let machine;
  let own;
  try {
    machine = machineTicks();
    own = ownTicks(pids);
  } catch {
    available = false;
  }
  return {
    stop() {
      if (!available) return null;
      const now = machineTicks();
      const total = now.total - machine.total;
      const foreign = now.busy - machine.busy - (ownTicks(pids) - own);
      if (total <= 0) return 0;
      return Math.max(0, Math.round((1000 * foreign) / total) / 10);
    },
  };
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A shared allowance of waiting for other processes to calm down, spent in
 * 500 ms looks until the machine is quiet; once spent, measurements start at once.
 */
export function quietGate({ pids, budgetMs, thresholdPct }) {
  let left = budgetMs;
  return async function waitForQuiet() {
    while (left > 0) {
      const window = cpuWindow(pids);
      await pause(500);
      left -= 500;
      const load = window.stop();
      if (load === null || load <= thresholdPct) return;
    }
  };
}

/**
 * Runs `measure` and records the foreign CPU load during it; when that load
 * is above `thresholdPct`, measures again (at most `retries` more times) and
 * keeps the quietest attempt (`retries` may be a function, read before each
 * attempt). Every attempt's load is reported. `beforeEach`
 * (e.g. a quiet gate) runs before every attempt.
 */
export async function measureQuietly(measure, { pids, retries = 1, thresholdPct = 10, beforeEach = async () => {} }) {
  let best;
  const loads = [];
  const allowed = () => (typeof retries === 'function' ? retries() : retries);
  for (let attempt = 0; attempt <= allowed(); attempt++) {
    await beforeEach();
    const window = cpuWindow(pids);
    const result = await measure();
    const load = window.stop();
    loads.push(load);
    if (!best || (load ?? 0) < (best.otherCpuPct ?? 0)) best = { ...result, otherCpuPct: load };
    if (load === null || load <= thresholdPct) break;
  }
  return { ...best, otherCpuPctAttempts: loads };
}

/**
 * Other processes' CPU share over several runs of one target (each made by
 * `measureQuietly`): the highest any run saw, with the attempts of the runs
 * that were retried.
 */
export function combinedLoad(runs) {
  const loads = runs.map((run) => run.otherCpuPct).filter((load) => load !== undefined && load !== null);
  const retried = runs.filter((run) => (run.otherCpuPctAttempts?.length ?? 0) > 1);
  return {
    otherCpuPct: loads.length > 0 ? Math.max(...loads) : undefined,
    ...(retried.length > 0 ? { otherCpuPctAttempts: retried.flatMap((run) => run.otherCpuPctAttempts) } : {}),
  };
}
