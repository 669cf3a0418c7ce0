/**
 * The capped record of deliveries, kept in `<data>/deliveries.json` beside the data file (it is
 * a log, not content) so it survives a restart. Newest last in memory; the oldest go first when
 * the cap is reached. Writes are coalesced like the store's.
 */
import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { z } from 'zod';
import { deliverySchema, type Delivery } from './delivery.js';

const fileSchema = z.object({ deliveries: z.array(deliverySchema) });
type DeliveryFile = z.output<typeof fileSchema>;

export const DEFAULT_DELIVERY_CAP = 2000;

export class DeliveryLog {
  private readonly byId = new Map<string, Delivery>();
  private writing: Promise<void> | null = null;
  private dirty = false;
  private closed = false;

  private constructor(
    private readonly low: Low<DeliveryFile>,
    private readonly cap: number,
  ) {
    for (const d of low.data.deliveries) this.byId.set(d.id, d);
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
    const low = new Low<DeliveryFile>(new JSONFile<DeliveryFile>(file), data);
    low.data = data;
    return new DeliveryLog(low, cap);
  }

  /** Newest first. */
  list(): Delivery[] {
    return [...this.low.data.deliveries].reverse();
  }

  get(id: string): Delivery | undefined {
    return this.byId.get(id);
  }

  add(delivery: Delivery): void {
    const all = this.low.data.deliveries;
    all.push(delivery);
    this.byId.set(delivery.id, delivery);
    if (all.length > this.cap) for (const old of all.splice(0, all.length - this.cap)) this.byId.delete(old.id);
    this.changed();
  }

  /** Call after changing a delivery in place. */
  changed(): void {
    if (this.closed) return;
    this.dirty = true;
    if (this.writing) return;
    this.writing = (async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.dirty && !this.closed) {
        this.dirty = false;
        await this.low.write();
      }
    })()
      .catch((err: unknown) => console.error('cms-emulator: could not save the delivery log:', err))
      .finally(() => (this.writing = null));
  }

  clear(): void {
    this.low.data.deliveries.length = 0;
    this.byId.clear();
    this.changed();
  }

  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Saves what is pending, then stops writing (deliveries still in flight are not saved). */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}
