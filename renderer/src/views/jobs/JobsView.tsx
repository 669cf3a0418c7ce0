/** The Jobs view (being built). */
export function JobsView() {
  return (
    <section class="view">
      <h1>Jobs</h1>
    </section>
  );
}
