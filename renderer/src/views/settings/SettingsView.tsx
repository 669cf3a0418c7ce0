/** The Settings view (being built). */
export function SettingsView() {
  return (
    <section class="view">
      <h1>Settings</h1>
    </section>
  );
}
