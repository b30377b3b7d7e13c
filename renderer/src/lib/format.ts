/** Display helpers: durations, clock times and messages as people read them. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** A clock time to the millisecond, for editing cue times: 0:03.250, 1:02:03.250. */
export function preciseClock(ms: number): string {
  const rest = Math.max(0, Math.round(ms)) % 1000;
  return `${clock(ms)}.${String(rest).padStart(3, '0')}`;
}

/**
 * Reads what a person typed as a time: "1:02.5", "0:03.250", "1:02:03,250" or plain seconds "3.2".
 * Answers milliseconds (negative when typed with a minus, so the caller can say why it is refused),
 * or null when it is not a time at all.
 */
export function parseClock(text: string): number | null {
  const m = /^\s*(-)?\s*(?:(\d+):)?(?:(\d+):)?(\d+(?:[.,]\d{1,3})?)\s*$/.exec(text);
  if (!m) return null;
  const [, minus, a, b, sec] = m;
  const hours = b !== undefined ? Number(a) : 0;
  const minutes = b !== undefined ? Number(b) : Number(a ?? 0);
  const seconds = Number(sec.replace(',', '.'));
  // With colons, each field stays in its clock range: "1:75" is a typo, not 2:15.
  if (a !== undefined && seconds >= 60) return null;
  if (b !== undefined && minutes >= 60) return null;
  const ms = Math.round(((hours * 60 + minutes) * 60 + seconds) * 1000);
  return minus ? -ms : ms;
}

/** The day only, for a narrow place (a list row, a table cell): "24 Nov 2026". */
export const day = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : '');

export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A message that also follows a name elsewhere ("…: reads at …"), started as a sentence of its own. */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
