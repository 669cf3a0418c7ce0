/** The Content view (being built). */
export function ContentView() {
  return (
    <section class="view">
      <h1>Content</h1>
    </section>
  );
}
