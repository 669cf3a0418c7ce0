/**
 * Writes the delivery log's file a slice of deliveries at a time, the event loop served between
 * slices, then renames it into place (atomic, as lowdb's own write). The text is exactly what
 * `JSON.stringify({ deliveries }, null, 2)` gives.
 *
 * Why slices (docs/performance.md, session 11): on the demo store every post written makes two
 * deliveries, and the whole log (2,000 deliveries with their bodies, megabytes of JSON) was
 * stringified in one go once a second during a write storm, one stall of the event loop that
 * the writes arriving meanwhile waited behind, and one string large enough to be promoted to
 * V8's old generation whenever a scavenge came while it was being written.
 */
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Deliveries stringified per slice: ~100 × 4 KB, well under a millisecond of work each. */
const PER_SLICE = 100;

/** `item` as it sits in the file: pretty-printed, every line indented as an array element of `deliveries`. */
const asElement = (item: unknown): string => '    ' + JSON.stringify(item, null, 2).replaceAll('\n', '\n    ');

export async function writeDeliveryFile(file: string, deliveries: readonly unknown[]): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.tmp`);
  const handle = await open(temporary, 'w');
  try {
    if (deliveries.length === 0) await handle.write('{\n  "deliveries": []\n}');
    else {
      await handle.write('{\n  "deliveries": [\n');
      for (let from = 0; from < deliveries.length; from += PER_SLICE) {
        const slice = deliveries
          .slice(from, from + PER_SLICE)
          .map(asElement)
          .join(',\n');
        await handle.write(from + PER_SLICE < deliveries.length ? slice + ',\n' : slice);
      }
      await handle.write('\n  ]\n}');
    }
  } catch (err) {
    await handle.close();
    await rm(temporary, { force: true });
    throw err;
  }
  await handle.close();
  await rename(temporary, file);
}
