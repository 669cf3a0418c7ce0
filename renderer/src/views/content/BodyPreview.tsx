/**
 * An HTML body rendered in a sandboxed frame: `sandbox=""` (no scripts, no forms, no top
 * navigation, an opaque origin) and the UI's own CSP, which a srcdoc document inherits. The body
 * is untrusted: this frame is the only place it is ever parsed as HTML.
 */
import previewCss from './preview.css?url';
import { resolveMediaRefs } from './media.js';

function documentOf(body: string): string {
  const css = new URL(previewCss, document.baseURI).href;
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<link rel="stylesheet" href="${css}"></head><body>` +
    resolveMediaRefs(body) +
    '</body></html>'
  );
}

export function BodyPreview({ body, title }: { body: string; title: string }) {
  return <iframe key={body} sandbox="" class="preview" title={title} referrerpolicy="no-referrer" srcdoc={documentOf(body)} />;
}
