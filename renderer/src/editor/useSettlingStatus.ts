import { useEffect, useRef } from 'react';
import type { DocumentRecord } from '../../../common/ipc';
import type { Say, Status } from './useEdit';

export const SENT = 'Saved and sent: the service has these edits.';
export const SAVED_HERE = 'Saved on this computer. It goes to the service when it is reached again.';
export const SUMMARY_ARRIVED = 'Summary ready: open “Summary” above the text.';

/**
 * Replaces a notice that waits for something (Status.until) once it has happened: "saved on this
 * computer" becomes "sent" when the document is back in step with the service ("saved" becomes
 * "saved on this computer" when the service turns out not to be reached before it is sent), "summary
 * requested" becomes "ready" when a new summary is in the document. A save is only counted as
 * sent after the document was seen unsent, since the record read before the save still says synced.
 */
export function useSettlingStatus(status: Status | null, say: Say, now: { localState: DocumentRecord['local_state'] | undefined; summary: string | undefined; online: boolean }): void {
  const watched = useRef<{ status: Status | null; seenUnsent: boolean }>({ status: null, seenUnsent: false });
  const { localState, summary, online } = now;
  useEffect(() => {
    if (watched.current.status !== status) watched.current = { status, seenUnsent: false };
    const until = status?.until;
    if (!until) return;
    if (until.kind === 'summary') {
      if (summary && summary !== until.before) say(SUMMARY_ARRIVED);
    } else if (localState !== undefined && localState !== 'synced') {
      watched.current.seenUnsent = true;
      if (!online && status.text !== SAVED_HERE) say(SAVED_HERE, false, until);
    } else if (localState === 'synced' && watched.current.seenUnsent) {
      // An online save that went straight through keeps its "Saved."; one that waited says it went.
      if (status.text === SAVED_HERE) say(SENT);
      else say(status.text);
    }
  }, [status, say, localState, summary, online]);
}
