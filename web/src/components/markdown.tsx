import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** Agent output is untrusted: parse as markdown, then strip anything executable. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

export function Markdown(props: { text: string; class?: string }) {
  return <div class={`markdown ${props.class ?? ''}`} innerHTML={renderMarkdown(props.text)} />;
}
