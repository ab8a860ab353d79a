import { A, useNavigate } from '@solidjs/router';
import { For, type JSX } from 'solid-js';

export type TabDef = { id: string; label: string; href: string };

/**
 * WAI-ARIA tabs whose selection lives in the URL: one tab stop (the selected tab), arrow keys,
 * Home and End move and select, the panel is labelled by its tab.
 */
export function Tabs(props: { label: string; tabs: TabDef[]; selected: string; children: JSX.Element }) {
  const navigate = useNavigate();
  let list: HTMLDivElement | undefined;
  const onKeyDown = (e: KeyboardEvent) => {
    const i = props.tabs.findIndex((t) => t.id === props.selected);
    const n = props.tabs.length;
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % n
        : e.key === 'ArrowLeft'
          ? (i - 1 + n) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    const tab = props.tabs[next];
    if (!tab) return;
    navigate(tab.href);
    queueMicrotask(() => list?.querySelector<HTMLElement>(`#tab-${tab.id}`)?.focus());
  };
  return (
    <>
      <div class="tabs" role="tablist" aria-label={props.label} ref={list} onKeyDown={onKeyDown}>
        <For each={props.tabs}>
          {(t) => (
            <A
              href={t.href}
              id={`tab-${t.id}`}
              role="tab"
              aria-selected={props.selected === t.id}
              aria-controls={`panel-${t.id}`}
              tabIndex={props.selected === t.id ? 0 : -1}
              class={props.selected === t.id ? 'tab tab-active' : 'tab'}
              end
            >
              {t.label}
            </A>
          )}
        </For>
      </div>
      <div role="tabpanel" id={`panel-${props.selected}`} aria-labelledby={`tab-${props.selected}`}>
        {props.children}
      </div>
    </>
  );
}
