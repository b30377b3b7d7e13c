import { useSyncExternalStore } from 'react';
import type { CaptionsRebuilt } from '../../../../common/ipc';
import type { CaptionContent } from '../../../../common/transcript';
import { subscribe } from '../../lib/bridge';

/** The words for a rebuild: how many cues changed, and that hand edits were kept. */
export function rebuildMessage(r: CaptionsRebuilt): string {
  const n = r.changed.length || r.removed.length;
  if (n === 0) return 'The captions already match the transcript.';
  const cues = `${n} ${n === 1 ? 'cue' : 'cues'} ${r.changed.length ? 'rebuilt' : 'removed'} from the transcript`;
  return r.keptEdits.length ? `${cues}; your own edits kept.` : `${cues}.`;
}

/**
 * Recent rebuilds, heard app-wide from the moment the editor loads: a transcript is saved while
 * its captions are not on screen, and the caption editor opened afterwards still says what changed.
 */
let recent: CaptionsRebuilt[] = [];
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
if (typeof window !== 'undefined') {
  subscribe('captions.rebuilt', (r) => {
    if (!r.changed.length && !r.removed.length) return;
    recent = [r, ...recent.filter((x) => x.documentId !== r.documentId)].slice(0, 20);
    notify();
  });
}
const store = {
  subscribe: (l: () => void) => (listeners.add(l), () => void listeners.delete(l)),
  get: () => recent,
  dismiss: (r: CaptionsRebuilt) => ((recent = recent.filter((x) => x !== r)), notify()),
};

/**
 * Says which cues the last rebuild from the transcript changed. The view does not know its
 * document's id, so a rebuild is taken as this document's when the cues it made are all here and
 * the ones it removed are not.
 */
export function RebuildNotice({ content }: { content: CaptionContent }) {
  const rebuilds = useSyncExternalStore(store.subscribe, store.get);
  const ids = new Set(content.cues.map((q) => q.id));
  const mine = rebuilds.find((r) => r.changed.length > 0 && r.changed.every((id) => ids.has(id)) && !r.removed.some((id) => ids.has(id)));
  // The slot stays when empty: useVirtualRows watches the size of what sits above the rows.
  return (
    <div className="rebuild-notice-slot">
      {mine && (
        <p className="notice" role="status">
          {rebuildMessage(mine)}{' '}
          <button type="button" className="link" onClick={() => store.dismiss(mine)}>
            Dismiss
          </button>
        </p>
      )}
    </div>
  );
}
