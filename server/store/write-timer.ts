/**
 * When a coalesced write of a file may begin (the data file, store.ts; the delivery log,
 * webhooks/delivery-log.ts): once its due time has passed, re-read whenever a timer fires since
 * later changes move it on (a quiet period restarts), or at once when hurried (a flush).
 */
export class WriteTimer {
  /** Set by hurry(); whoever waits clears it once the write it hurried has begun. */
  hurried = false;
  private wake: (() => void) | null = null;

  /**
   * Resolves once `due()` (a Date.now() time) has passed, or on hurry(). `atLeastOneTick`: a
   * write already due still waits a turn of the event loop, so changes of the same moment join
   * it. `unref`: the wait does not keep the process alive (its owner writes on close anyway).
   */
  async wait(due: () => number, options: { atLeastOneTick?: boolean; unref?: boolean } = {}): Promise<void> {
    for (let first = true; !this.hurried; first = false) {
      const wait = due() - Date.now();
      if (wait <= 0 && !(first && options.atLeastOneTick)) return;
      await new Promise<void>((resolve) => {
        const timer = wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve);
        if (options.unref) timer.unref();
        this.wake = () => {
          if (wait > 0) clearTimeout(timer as NodeJS.Timeout);
          else clearImmediate(timer as NodeJS.Immediate);
          resolve();
        };
      });
      this.wake = null;
      if (wait <= 0) return;
    }
  }

  /** The write waiting for its moment goes now. */
  hurry(): void {
    this.hurried = true;
    this.wake?.();
  }
}
