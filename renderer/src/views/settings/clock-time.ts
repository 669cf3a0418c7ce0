/** Conversions for the clock form: datetime-local values (local time, no zone) and offsets in words. */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DDTHH:mm:ss` in local time, as <input type="datetime-local" step="1"> wants it. */
export function toLocalInput(date: Date): string {
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** A datetime-local value (read as local time) as an ISO instant, or null when incomplete. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** "+2 d 3 h 15 min" / "−45 s": how far the emulator's clock is from real time. */
export function offsetOf(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  let rest = Math.round(Math.abs(ms) / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${unit}`);
  }
  return parts.length ? sign + parts.slice(0, 3).join(' ') : '±0 s';
}
