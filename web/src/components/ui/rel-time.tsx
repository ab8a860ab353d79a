import { createSignal, onCleanup } from 'solid-js';
import { formatRelative, formatTime } from '~/lib/format';

const [now, setNow] = createSignal(Date.now());
let users = 0;
let timer: ReturnType<typeof setInterval> | undefined;

/** "3 min ago", with the absolute time on hover; every instance shares one 30 s tick. */
export function RelTime(props: { iso: string | null | undefined }) {
  if (users++ === 0) timer = setInterval(() => setNow(Date.now()), 30_000);
  onCleanup(() => {
    if (--users === 0) clearInterval(timer);
  });
  return (
    <time datetime={props.iso ?? undefined} title={formatTime(props.iso)}>
      {formatRelative(props.iso, now())}
    </time>
  );
}
