/**
 * A post: state and dates, author and terms, the dashboard actions; its body as text (the HTML
 * source) by default, or rendered in a sandboxed frame on request.
 */
import type { Post } from '../../../api/types.js';
import { Code, Json } from '../../../components/Code.js';
import { Tabs } from '../../../components/Tabs.js';
import { Actions } from '../Actions.js';
import { BodyPreview } from '../BodyPreview.js';
import { actionPath, placeHref } from '../contentRoute.js';
import { GenericValue } from '../FieldValue.js';
import { mediaIdOf } from '../media.js';
import { postState } from '../status.js';
import { Thumb } from '../Thumb.js';
import { DetailHead, Props, when } from './parts.js';

function describe(post: Post): string {
  return post.status === 'scheduled' ? `scheduled for ${when(post.scheduled)}` : post.status;
}

function Links({ org, kind, slugs }: { org: string; kind: 'categories' | 'tags'; slugs: string[] }) {
  if (slugs.length === 0) return null;
  return (
    <span class="links">
      {slugs.map((slug) => (
        <a key={slug} href={placeHref(org, { kind }, slug)}>
          {slug}
        </a>
      ))}
    </span>
  );
}

/** The featured image: a thumbnail when it is a library file, else its URL as text. */
function Featured({ post, org }: { post: Post; org: string }) {
  const id = mediaIdOf(post.featured_image);
  return (
    <figure class="featured">
      {id ? (
        <a href={placeHref(org, { kind: 'media' }, id)} title={`Media ${id}`}>
          <Thumb id={id} alt={post.featured_image_alt} size={160} />
        </a>
      ) : (
        <GenericValue value={post.featured_image} ctx={{ org }} />
      )}
      {post.featured_image_alt && <figcaption class="muted small">{post.featured_image_alt}</figcaption>}
    </figure>
  );
}

export function PostDetail({ post, org, onDeleted }: { post: Post; org: string; onDeleted: () => void }) {
  return (
    <article data-testid="post-detail" aria-label={`Post ${post.title}`}>
      <DetailHead title={post.title} state={postState(post)} sub={post.slug} />
      <div class="record-top">
        <Props
          rows={[
            ['ID', post.id],
            ['Author', <a href={placeHref(org, { kind: 'authors' }, post.author)}>{post.author}</a>],
            ['Categories', <Links org={org} kind="categories" slugs={post.categories} />],
            ['Tags', <Links org={org} kind="tags" slugs={post.tags} />],
            ['Created', when(post.created)],
            ['Updated', when(post.updated)],
            ['Published', when(post.published)],
            ['Scheduled', when(post.scheduled)],
          ]}
        />
        {post.featured_image && <Featured post={post} org={org} />}
      </div>
      <Actions<Post>
        path={actionPath(org, { kind: 'posts' }, post.slug)!}
        actions={['publish', 'unpublish', 'schedule', 'delete']}
        name={post.slug}
        describe={describe}
        onDone={(action) => action === 'delete' && onDeleted()}
      />
      <Tabs
        label="Post"
        tabs={[
          {
            id: 'body',
            label: 'Body',
            render: () => (
              <Code text={post.body} type="text/html" label={`Body: the stored HTML, shown as text (${post.body.length} characters)`} />
            ),
          },
          {
            id: 'preview',
            label: 'Preview',
            render: () => (
              <>
                <p class="muted small">Rendered in a sandboxed frame: no script in the body can run.</p>
                <BodyPreview body={post.body} title={`Preview of ${post.title} (sandboxed)`} />
              </>
            ),
          },
          {
            id: 'seo',
            label: 'Summary & SEO',
            render: () => (
              <Props
                rows={[
                  ['Summary', <span class="pre-wrap">{post.summary}</span>],
                  ['SEO title', post.seo_title],
                  ['Meta description', post.meta_description],
                  ['Featured image', post.featured_image],
                  ['Image alt', post.featured_image_alt],
                ]}
              />
            ),
          },
          { id: 'raw', label: 'Raw JSON', render: () => <Json value={post} /> },
        ]}
      />
    </article>
  );
}
