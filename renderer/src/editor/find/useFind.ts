import { useEffect, useMemo, useState, type RefObject } from 'react';
import { findText, replaceText, type DocumentContent, type FindMatch } from '../../../../common/transcript';
import type { History } from '../useHistory';
import type { RowScroller } from '../useVirtualRows';
import type { FindState } from './FindBar';

/**
 * Find and replace over the open document: the bar's state, the matches (common/transcript's
 * findText), stepping through them with the selected one scrolled into view, and replace all. A
 * new query starts at the first match at or after the row in view (wrapping to the top), as a
 * browser's find does.
 */
export function useFind(history: History<DocumentContent>, rows: RefObject<RowScroller | null>, say: (text: string) => void, pauseFollowing: () => void) {
  const { present: content, latest, push } = history;
  const [find, setFind] = useState<FindState | null>(null);
  const query = find?.query ?? '';
  const caseSensitive = find?.caseSensitive ?? false;
  const wholeWord = find?.wholeWord ?? false;
  const matches = useMemo(() => (content && query ? findText(content, query, { caseSensitive, wholeWord }) : []), [content, query, caseSensitive, wholeWord]);
  // The first match at or after the row that was in view when the query was typed (else the first).
  const from = find?.from ?? 0;
  const first = useMemo(() => Math.max(0, matches.findIndex((m) => m.item >= from)), [matches, from]);
  const selected = find && matches.length ? (first + find.at) % matches.length : -1;
  const selectedMatch: FindMatch | null = selected >= 0 ? matches[selected] : null;

  const step = (delta: number) => {
    if (!find || !matches.length) return;
    pauseFollowing();
    setFind({ ...find, at: (find.at + delta + matches.length) % matches.length });
  };
  // The match may lie in a row the virtualized list has not rendered: the list scrolls to it by
  // index. One already wholly in view stays where it is, so finding does not move the text under the eye.
  useEffect(() => {
    if (selectedMatch) rows.current?.reveal(selectedMatch.item_id, 'if-hidden');
  }, [selectedMatch, rows]);
  const replaceAll = () => {
    const current = latest();
    if (!current || !find) return;
    const r = replaceText(current, query, find.replacement, { caseSensitive, wholeWord });
    if (!r.matches.length) return;
    push(r.content, 'replace all');
    say(`Replaced ${r.matches.length} place${r.matches.length > 1 ? 's' : ''}.`);
  };
  const firstInView = () => rows.current?.firstInView() ?? 0;
  return { find, setFind, matches, selected, selectedMatch, step, replaceAll, firstInView };
}
