/**
 * The emulator's sense of time. Every timestamp the emulator writes comes from its clock, which
 * the control API can set, freeze or advance (issue 6); scheduled posts and pages publish when
 * it passes their time. Real time by default.
 */
export interface Clock {
  now(): Date;
}

/** ISO 8601 in UTC with milliseconds and `Z`, the form the store keeps. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

export interface ClockState {
  now: string;
  /** `real`: system time; `offset`: system time shifted; `frozen`: stands still until moved. */
  mode: 'real' | 'offset' | 'frozen';
  offset_ms: number;
}

export class EmulatorClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;
  private readonly listeners = new Set<() => void>();

  now(): Date {
    return new Date(this.frozenAt ?? Date.now() + this.offsetMs);
  }

  /** Jumps to `date`; with `freeze`, time then stands still, else it runs on from there. */
  set(date: Date, freeze = false): void {
    if (freeze) {
      this.frozenAt = date.getTime();
      this.offsetMs = 0;
    } else {
      this.frozenAt = null;
      this.offsetMs = date.getTime() - Date.now();
    }
    this.changed();
  }

  advance(ms: number): void {
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offsetMs += ms;
    this.changed();
  }

  /** Back to real time. */
  reset(): void {
    this.frozenAt = null;
    this.offsetMs = 0;
    this.changed();
  }

  state(): ClockState {
    const mode = this.frozenAt !== null ? 'frozen' : this.offsetMs !== 0 ? 'offset' : 'real';
    return { now: this.now().toISOString(), mode, offset_ms: this.frozenAt !== null ? this.frozenAt - Date.now() : this.offsetMs };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
