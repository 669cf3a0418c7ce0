/** The webhooks (of every organization) whose url is `inbox:<name>`, read from the content API. */
import { useEffect, useState } from 'preact/hooks';
import { getData } from '../../api/client.js';
import type { Webhook } from '../../api/types.js';
import { contentRevision, organizations } from '../../state/live.js';

export interface InboxUser {
  organization: string;
  webhook: Webhook;
}

export function useInboxUsers(name: string): InboxUser[] | null {
  const orgs = organizations.value;
  const revision = contentRevision.value;
  const [users, setUsers] = useState<InboxUser[] | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    Promise.all(
      orgs.map(async (o) => {
        const hooks = await getData<Webhook[]>(`organizations/${encodeURIComponent(o.slug)}/content/webhooks`, { signal: abort.signal });
        return hooks.filter((w) => w.url === `inbox:${name}`).map((webhook) => ({ organization: o.slug, webhook }));
      }),
    )
      .then((lists) => setUsers(lists.flat()))
      .catch(() => {
        if (!abort.signal.aborted) setUsers([]);
      });
    return () => abort.abort();
  }, [name, orgs, revision]);
  return users;
}
