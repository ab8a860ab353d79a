export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s % 60)} s`;
}

export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return '—';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** The one absolute date format of the app (lists, hovers, previews). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "just now", "3 min ago", "in 2 h", "yesterday", then the date itself. */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const diff = Math.round((now - t) / 1000);
  const abs = Math.abs(diff);
  const say = (n: number, unit: string) => (diff >= 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`);
  // A few minutes "ahead" is clock skew between browser and server, not the future.
  if (diff > -300 && diff < 45) return 'just now';
  if (abs < 3600) return say(Math.max(1, Math.round(abs / 60)), 'min');
  if (abs < 86_400) return say(Math.round(abs / 3600), 'h');
  const days = Math.round(abs / 86_400);
  if (days === 1) return diff >= 0 ? 'yesterday' : 'tomorrow';
  if (days < 7) return say(days, 'days');
  return new Date(t).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** 950 → "950", 12_300 → "12k", 1_000_000 → "1M" (never "1000k"). */
export function formatTokens(n: number): string {
  const short = (v: number, unit: string) => `${v.toFixed(v >= 10 ? 0 : 1).replace(/\.0$/, '')}${unit}`;
  if (n >= 999_500) return short(n / 1_000_000, 'M');
  if (n >= 1000) return short(n / 1000, 'k');
  return String(n);
}

/** "1 turn", "2 turns". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const isActive = (status: string) => status === 'queued' || status === 'running';

/** A short, recognisable form of a ULID for labels (the full id stays in links and titles). */
export const shortId = (id: string) => `${id.slice(0, 8)}…`;
