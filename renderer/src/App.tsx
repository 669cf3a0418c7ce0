/** Picks the view for the route; everything else lives in the shell and the views. */
import { Shell } from './components/Shell.js';
import { route } from './state/route.js';
import { ContentView } from './views/content/ContentView.js';
import { JobsView } from './views/jobs/JobsView.js';
import { RequestsView } from './views/requests/RequestsView.js';
import { SettingsView } from './views/settings/SettingsView.js';
import { WebhooksView } from './views/webhooks/WebhooksView.js';

const VIEWS = {
  requests: RequestsView,
  content: ContentView,
  webhooks: WebhooksView,
  jobs: JobsView,
  settings: SettingsView,
};

export function App() {
  const View = VIEWS[route.value.view];
  return (
    <Shell>
      <View />
    </Shell>
  );
}
