import { useEffect, useMemo, useState, type RefObject } from 'react';
import { findText, replaceText, type DocumentContent, type FindMatch } from '../../../../common/transcript';
import type { History } from '../useHistory';
import type { RowScroller } from '../useVirtualRows';
import type { FindState } from './FindBar';

/**
 * Find and replace over the open document: the bar's state, the matches (common/transcript's
 * findText), stepping through them with the selected one scrolled into view, and replace all.
 */
export function useFind(history: History<DocumentContent>, rows: RefObject<RowScroller | null>, say: (text: string) => void, pauseFollowing: () => void) {
  const { present: content, latest, push } = history;
  const [find, setFind] = useState<FindState | null>(null);
  const query = find?.query ?? '';
  const caseSensitive = find?.caseSensitive ?? false;
  const wholeWord = find?.wholeWord ?? false;
  const matches = useMemo(() => (content && query ? findText(content, query, { caseSensitive, wholeWord }) : []), [content, query, caseSensitive, wholeWord]);
  const selectedMatch: FindMatch | null = find && matches.length ? matches[find.at % matches.length] : null;

  const step = (delta: number) => {
    if (!find || !matches.length) return;
    pauseFollowing();
    setFind({ ...find, at: (find.at + delta + matches.length) % matches.length });
  };
  // The match may lie in a row the virtualized list has not rendered: the list scrolls to it by index.
  useEffect(() => {
    if (selectedMatch) rows.current?.reveal(selectedMatch.item_id);
  }, [selectedMatch, rows]);
  const replaceAll = () => {
    const current = latest();
    if (!current || !find) return;
    const r = replaceText(current, query, find.replacement, { caseSensitive, wholeWord });
    if (!r.matches.length) return;
    push(r.content, 'replace all');
    say(`Replaced ${r.matches.length} place${r.matches.length > 1 ? 's' : ''}.`);
  };
  return { find, setFind, matches, selectedMatch, step, replaceAll };
}
