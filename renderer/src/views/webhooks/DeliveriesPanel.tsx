/**
 * Deliveries: the live list (newest first, filtered in the browser) and the selected delivery.
 * The selection lives in the URL (#/webhooks/<id>); the filter outlives a visit to Inboxes.
 */
import { computed, signal } from '@preact/signals';
import { deliveries } from '../../state/live.js';
import { FilterSelect, OrganizationSelect } from '../../components/FilterSelect.js';
import { navigate } from '../../state/route.js';
import { VirtualList } from '../../components/VirtualList.js';
import { ClearDeliveries } from './ClearDeliveries.js';
import { DeliveryDetail } from './DeliveryDetail.js';
import { DeliveryHead, DeliveryRow } from './DeliveryRow.js';
import { eventsOf, matches, NO_FILTER, STATES, type DeliveryFilter } from './filters.js';

const filter = signal<DeliveryFilter>(NO_FILTER);
const rows = computed(() => deliveries.value.filter((d) => matches(d, filter.value)));
const events = computed(() => eventsOf(deliveries.value));
const set = (patch: Partial<DeliveryFilter>) => (filter.value = { ...filter.value, ...patch });

function Filters() {
  const f = filter.value;
  const eventOptions = f.event && !events.value.includes(f.event) ? [f.event, ...events.value] : events.value;
  return (
    <>
      <OrganizationSelect value={f.organization} onChange={(organization) => set({ organization })} />
      <FilterSelect label="Event" noFilterLabel="Any event" value={f.event} choices={eventOptions} onChange={(event) => set({ event })} />
      <FilterSelect label="State" noFilterLabel="Any state" value={f.state} choices={STATES} onChange={(state) => set({ state })} />
      <input
        type="search"
        aria-label="Target contains"
        placeholder="Target contains…"
        value={f.target}
        onInput={(e) => set({ target: e.currentTarget.value })}
      />
    </>
  );
}

export function DeliveriesPanel({ selected }: { selected: string | null }) {
  return (
    <div class="split wh-split">
      <div class="pane">
        <div class="toolbar" role="search">
          <Filters />
          <span class="spacer" />
          <span class="muted small" data-testid="delivery-count">
            {rows.value.length} of {deliveries.value.length}
          </span>
          <ClearDeliveries />
        </div>
        <DeliveryHead />
        <VirtualList
          rows={rows.value}
          rowHeight={34}
          keyOf={(d) => d.id}
          selected={selected}
          onSelect={(d) => navigate('webhooks', d.id)}
          renderRow={(d) => <DeliveryRow row={d} />}
          label="Deliveries, newest first"
          empty={
            deliveries.value.length === 0
              ? 'No deliveries yet. A write through the API fires the webhooks that subscribe to it; they appear here live.'
              : 'No delivery matches these filters.'
          }
        />
      </div>
      <div class="pane">
        <div class="pane-body">
          {selected ? (
            <DeliveryDetail key={selected} id={selected} />
          ) : (
            <p class="muted">Select a delivery to see the exact request and every attempt.</p>
          )}
        </div>
      </div>
    </div>
  );
}
