/**
 * A full garbage collection, asked for where the emulator knows a large amount of garbage was just
 * left (the text and first parse of a large data file: ~80 MB on a 74 MB store, which V8 may keep
 * resident for seconds, and which made the resident size right after loading its highest point;
 * docs/performance.md). V8 gives `gc()` only to contexts made after `--expose-gc` is set, so one
 * is made for it; the store's write worker does the same in its own isolate.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const found: unknown = runInNewContext('typeof gc === "function" ? gc : null');
      collect = typeof found === 'function' ? (found as () => void) : null;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
