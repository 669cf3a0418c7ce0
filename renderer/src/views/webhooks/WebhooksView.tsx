/**
 * Webhooks: the deliveries (#/webhooks/<id>) and the built-in receivers
 * (#/webhooks/inboxes/<name>), two sections of one view.
 */
import { deliveries } from '../../state/live.js';
import { href, route } from '../../state/route.js';
import { DeliveriesPanel } from './DeliveriesPanel.js';
import { InboxesPanel } from './InboxesPanel.js';
import './webhooks.css';

/** Each section's last selection, so switching sections and back keeps it. */
const last = { delivery: null as string | null, inbox: null as string | null };

export function WebhooksView() {
  const [first, second] = route.value.rest;
  const inboxes = first === 'inboxes';
  if (inboxes) last.inbox = second ?? null;
  else last.delivery = first ?? null;
  return (
    <section class="view webhooks" aria-label="Webhooks">
      <nav class="wh-sections" aria-label="Webhooks sections">
        <a href={last.delivery ? href('webhooks', last.delivery) : href('webhooks')} aria-current={inboxes ? undefined : 'page'}>
          Deliveries <span class="count">{deliveries.value.length}</span>
        </a>
        <a
          href={last.inbox ? href('webhooks', 'inboxes', last.inbox) : href('webhooks', 'inboxes')}
          aria-current={inboxes ? 'page' : undefined}
        >
          Inboxes
        </a>
      </nav>
      {inboxes ? <InboxesPanel selected={second ?? null} /> : <DeliveriesPanel selected={first ?? null} />}
    </section>
  );
}
