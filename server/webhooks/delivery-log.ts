/**
 * The capped record of deliveries, kept in `<data>/deliveries.json` beside the data file (it is
 * a log, not content) so it survives a restart. Newest last in memory; the oldest go first when
 * the cap is reached. Writes are coalesced like the store's: the file is written once changes have
 * been quiet for WRITE_QUIET_MS, and at most WRITE_MAX_DELAY_MS after the first change it does not
 * hold yet, or at once on flush (stop). Rewritten after every change, as it was, a full log (2,000
 * deliveries with their bodies, megabytes of JSON) cost ~10 ms of CPU per API write on the demo
 * store, whose webhooks deliver every post write to two inboxes (docs/performance.md). The file is
 * written a slice of deliveries at a time (delivery-file.ts), so a write never holds the event
 * loop for long.
 */
import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { z } from 'zod';
import { WriteTimer } from '../store/write-timer.js';
import { writeDeliveryFile } from './delivery-file.js';
import { deliverySchema, type Delivery } from './delivery.js';

const fileSchema = z.object({ deliveries: z.array(deliverySchema) });
type DeliveryFile = z.output<typeof fileSchema>;

export const DEFAULT_DELIVERY_CAP = 2000;

/** The file is written once changes have stopped for this long… */
const WRITE_QUIET_MS = 200;
/** …or this long after the first change it does not hold, whichever comes first. */
const WRITE_MAX_DELAY_MS = 1000;

export class DeliveryLog {
  private readonly byId = new Map<string, Delivery>();
  private writing: Promise<void> | null = null;
  private dirty = false;
  private closed = false;
  private lastChange = 0;
  private firstUnwritten: number | null = null;
  /** When the pending write may begin; a flush hurries it. */
  private readonly timer = new WriteTimer();

  private constructor(
    private readonly data: DeliveryFile,
    private readonly file: string,
    private readonly cap: number,
  ) {
    for (const d of data.deliveries) this.byId.set(d.id, d);
  }

  static async open(file: string, cap = DEFAULT_DELIVERY_CAP): Promise<DeliveryLog> {
    let data: DeliveryFile = { deliveries: [] };
    if (existsSync(file)) {
      try {
        data = fileSchema.parse(JSON.parse(await readFile(file, 'utf8')));
      } catch (err) {
        // A damaged log is set aside, never silently overwritten.
        const aside = `${file}.broken-${Date.now()}`;
        await rename(file, aside);
        console.error(`cms-emulator: ${file} could not be read (${(err as Error).message}); kept as ${aside}`);
      }
    }
    return new DeliveryLog(data, file, cap);
  }

  /** Newest first. */
  list(): Delivery[] {
    return [...this.data.deliveries].reverse();
  }

  get(id: string): Delivery | undefined {
    return this.byId.get(id);
  }

  add(delivery: Delivery): void {
    const all = this.data.deliveries;
    all.push(delivery);
    this.byId.set(delivery.id, delivery);
    if (all.length > this.cap) for (const old of all.splice(0, all.length - this.cap)) this.byId.delete(old.id);
    this.changed();
  }

  /** Call after changing a delivery in place. */
  changed(): void {
    if (this.closed) return;
    this.dirty = true;
    this.lastChange = Date.now();
    this.firstUnwritten ??= this.lastChange;
    if (this.writing) return;
    this.writing = this.writeLoop()
      .catch((err: unknown) => console.error('cms-emulator: could not save the delivery log:', err))
      .finally(() => (this.writing = null));
  }

  private async writeLoop(): Promise<void> {
    while (this.dirty && !this.closed) {
      await this.timer.wait(
        () => Math.min(this.lastChange + WRITE_QUIET_MS, (this.firstUnwritten ?? this.lastChange) + WRITE_MAX_DELAY_MS),
        {
          unref: true,
        },
      );
      this.timer.hurried = false;
      this.dirty = false;
      this.firstUnwritten = null;
      // Written a slice at a time (delivery-file.ts), from a copy of the list: the cap may drop
      // the oldest while it is written, and a delivery changed meanwhile is written again next.
      await writeDeliveryFile(this.file, [...this.data.deliveries]);
    }
    // A flush answered by the last write must not rush the next one.
    this.timer.hurried = false;
  }

  clear(): void {
    this.data.deliveries.length = 0;
    this.byId.clear();
    this.changed();
  }

  /** Writes what is pending now, and resolves once it is on disk. */
  async flush(): Promise<void> {
    while (this.writing) {
      this.timer.hurry();
      await this.writing;
    }
  }

  /** Saves what is pending, then stops writing (deliveries still in flight are not saved). */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}
