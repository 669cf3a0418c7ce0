/** The Webhooks view (being built). */
export function WebhooksView() {
  return (
    <section class="view">
      <h1>Webhooks</h1>
    </section>
  );
}
