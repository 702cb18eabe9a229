/**
 * Preloaded into the gateway by `profile-load.mjs --alloc` (node --require):
 * samples every allocation, including the objects the garbage collector has
 * already freed (what `--heap-prof` leaves out, and what GC time is made of),
 * and writes the profile as `<dir>/Alloc.<pid>.heapprofile` when the process
 * is told to stop. BENCH_ALLOC_DIR names the folder; BENCH_ALLOC_NO_INLINING=1
 * stops V8 inlining, so an allocation is charged to the function that made it
 * rather than to the caller it was inlined into. BENCH_ALLOC_PROMOTED=1
 * leaves out what the young generation collects: what remains is what was
 * promoted to the old generation (and what is still alive), the objects that
 * grow the old space, and with it RSS, until a full collection.
 */
'use strict';
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const v8 = require('node:v8');

if (process.env.BENCH_ALLOC_NO_INLINING === '1') v8.setFlagsFromString('--no-turbo-inlining');
const session = new Session();
session.connect();
session.post('HeapProfiler.enable');
session.post('HeapProfiler.startSampling', {
  samplingInterval: 8192,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: process.env.BENCH_ALLOC_PROMOTED !== '1',
});
process.prependListener('SIGTERM', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) writeFileSync(join(process.env.BENCH_ALLOC_DIR ?? '.', `Alloc.${process.pid}.heapprofile`), JSON.stringify(result.profile));
  });
});
