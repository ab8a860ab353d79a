import { createEffect, type JSX, onMount } from 'solid-js';

let navigated = false;

/** The shell calls this on every route change so the next page's heading takes focus. */
export const markNavigation = () => {
  navigated = true;
};

/**
 * The page's one <h1>. After a navigation it takes focus (screen readers announce the new page,
 * keyboard users start from its top), and it names the tab's <title>.
 */
export function PageHeading(props: { title: string; children?: JSX.Element }) {
  let el: HTMLHeadingElement | undefined;
  createEffect(() => {
    document.title = `${props.title} · Reprise`;
  });
  onMount(() => {
    if (!navigated || !el) return;
    navigated = false;
    el.focus({ preventScroll: false });
  });
  return (
    <h1 ref={el} tabIndex={-1} class="page-title">
      {props.children ?? props.title}
    </h1>
  );
}
