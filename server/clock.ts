/**
 * The emulator's sense of time. Every timestamp the emulator writes comes from a Clock, so the
 * control API can later set or advance a virtual clock (issue 6) without touching domain code.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 in UTC with milliseconds and `Z`, the form the store keeps. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}
