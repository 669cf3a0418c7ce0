/**
 * The benchmark's own process (tsx, the generated store, autocannon for the reads) shares the
 * machine's two cores with the servers it measures, so its garbage collections land in their
 * figures. Once the store is written as a fixture, ~170 MB of the parent's heap is garbage, and
 * V8's memory reducer collected it when the parent went idle, that is during a write storm:
 * `Mark-Compact (reduce) 166.5 -> 16.9 MB`, a 20 ms pause and 21 ms of marking, with helper
 * threads on both cores (docs/performance.md, session 9).
 *
 * `npm run bench` starts the parent with `--no-memory-reducer --expose-gc`, and the phases call
 * collectHarnessGarbage() before they measure, so that the parent collects while nothing runs.
 */
export function collectHarnessGarbage(): void {
  globalThis.gc?.();
}
