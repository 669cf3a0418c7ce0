/** A collection item: state, its fields in the chosen locale, the dashboard actions. */
import type { CollectionItem, OrganizationSummary } from '../../../api/types.js';
import { Json } from '../../../components/Code.js';
import { Tabs } from '../../../components/Tabs.js';
import { Actions } from '../Actions.js';
import { actionPath, placeHref } from '../contentRoute.js';
import type { CollectionSummary } from '../data.js';
import { FieldTable } from '../FieldTable.js';
import { localized } from '../fields.js';
import { itemState, titleOf } from '../status.js';
import { DefinitionTable, DetailHead, LocaleSelect, localeFor, Props, when } from './parts.js';

interface ItemDetailProps {
  item: CollectionItem;
  collection: CollectionSummary | undefined;
  collectionKey: string;
  org: OrganizationSummary | undefined;
  orgSlug: string;
  onDeleted: () => void;
}

export function ItemDetail({ item, collection, collectionKey, org, orgSlug, onDeleted }: ItemDetailProps) {
  const locale = localeFor(org);
  const values = localized(item.fields, locale);
  const defs = collection?.fields ?? [];
  const title = titleOf(values) ?? `Item ${item.id}`;
  return (
    <article data-testid="item-detail" aria-label={`Item ${item.id}`}>
      <DetailHead title={title} state={itemState(item)} sub={`${collectionKey} #${item.id}`} />
      <Props
        columns={2}
        rows={[
          ['ID', item.id],
          [
            'Collection',
            <a href={placeHref(orgSlug, { kind: 'items', collection: collectionKey })}>{collection?.name ?? collectionKey}</a>,
          ],
          ['Created', when(item.created)],
          ['Updated', when(item.updated)],
        ]}
      />
      <Actions<CollectionItem>
        path={actionPath(orgSlug, { kind: 'items', collection: collectionKey }, String(item.id))!}
        actions={['publish', 'unpublish', 'delete']}
        name={`${collectionKey} #${item.id}`}
        describe={(after) => after.status}
        onDone={(action) => action === 'delete' && onDeleted()}
      />
      <Tabs
        label="Item"
        tabs={[
          {
            id: 'fields',
            label: 'Fields',
            render: () => (
              <>
                <LocaleSelect org={org} />
                <FieldTable defs={defs} values={values} ctx={{ org: orgSlug }} />
              </>
            ),
          },
          { id: 'definition', label: 'Definition', render: () => <DefinitionTable defs={defs} /> },
          { id: 'raw', label: 'Raw JSON', render: () => <Json value={item} /> },
        ]}
      />
    </article>
  );
}
