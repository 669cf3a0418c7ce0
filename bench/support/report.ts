/** The benchmark's table: each figure, its ratios to the baselines, and its target with pass/fail. */

export interface Row {
  figure: string;
  value: number;
  unit: string;
  /** Emulator ÷ bare Node ceiling (req/s). */
  vs_bare?: number;
  /** Emulator ÷ json-server on the comparable query (req/s), or json-server's value for context. */
  vs_json_server?: number;
  target?: string;
  pass?: boolean;
}

export const ratio = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 100) / 100);

export function printTable(title: string, rows: Row[]): void {
  const header = ['figure', 'value', 'unit', '× bare', '× json-server', 'target', 'result'];
  const cells = rows.map((r) => [
    r.figure,
    String(r.value),
    r.unit,
    r.vs_bare === undefined ? '' : String(r.vs_bare),
    r.vs_json_server === undefined ? '' : String(r.vs_json_server),
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c.map((cell, i) => (i === 0 || i === 2 || i === 5 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}
