/** Small helpers shared by the scripts in scripts/. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (scripts/support/ is two levels down). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A heading in a script's output. */
export function section(title: string): void {
  console.log(`\n== ${title}`);
}
