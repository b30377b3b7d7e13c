import { useCallback, useMemo, useRef, useState } from 'react';
import { addSpeaker, mergeSpeakersAs, renameSpeaker } from '../../../common/transcript';
import { CaptionRules } from './captions/CaptionRules';
import { CaptionView } from './captions/CaptionView';
import { CueWaveform } from './captions/CueWaveform';
import { useCaptionRules } from './captions/useCaptionRules';
import { useCueTiming } from './captions/useCueTiming';
import { useShowCaption } from './captions/nowShowing';
import { EditorNotices } from './EditorNotices';
import { FinishedNotice, useFinishedLock } from './FinishedLock';
import { EditorToolbar } from './EditorToolbar';
import { FindBar, NO_FIND } from './find/FindBar';
import { FollowButton } from './FollowButton';
import { useFind } from './find/useFind';
import { cuePosition, transcriptPosition } from './playback';
import { ShortcutLine } from './ShortcutLine';
import { SpeakerBar } from './transcript/SpeakerBar';
import { TranscriptView } from './transcript/TranscriptView';
import { useEdit } from './useEdit';
import { useEditableDocument } from './useEditableDocument';
import { useEditorKeys } from './useEditorKeys';
import { SAVED_HERE, useSettlingStatus } from './useSettlingStatus';
import { useFollowPlayback } from './useFollowPlayback';
import type { RowScroller } from './useVirtualRows';
import { useCueActions, useSegmentActions } from './useRowActions';
import type { DocumentSummary } from '../../../common/ipc';
import { useOnline } from '../lib/useSyncState';
import './editor.css';

export interface DocumentEditorProps {
  documentId: string;
  /** The session's captions document, which a caption export from the transcript may be taken from instead. */
  captions?: DocumentSummary | null;
  nowMs: number;
  /** Whether the session has media to play (usePlayer). */
  hasMedia: boolean;
  onSeek: (ms: number, play?: boolean) => void;
  /** Another document of the session should open (a copy just made). */
  onOpenDocument: (documentId: string) => void;
  onDeleted: () => void;
}

/**
 * Edits a transcript (segments of timed words) or captions (cues) in step with playback. Every
 * change is one of common/transcript's pure operations applied to the whole content and pushed
 * onto an undo history (useEdit); saving hands the content to the cache, which sends it when online.
 */
export function DocumentEditor({ documentId, captions = null, nowMs, hasMedia, onSeek, onOpenDocument, onDeleted }: DocumentEditorProps) {
  const doc = useEditableDocument(documentId);
  const online = useOnline();
  const { registerDraft } = doc;
  // A finished document is read-only until reopened: every change goes through this history.
  const finished = doc.record?.finished === true;
  const history = useFinishedLock(doc.history, finished);
  const content = history.present;
  const { edit, status, say } = useEdit(history);
  const [cursor, setCursor] = useState<{ segmentId: string; word: number } | null>(null);
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);

  // Where playback is, and keeping it in view.
  // One object per playing word (not per media tick), so the memoized row list re-renders only when the word changes.
  const at = content?.kind === 'transcript' ? transcriptPosition(content, nowMs) : null;
  const atSegment = at?.segment ?? -1;
  const atWord = at?.word ?? -1;
  const isTranscript = at !== null;
  const position = useMemo(() => (isTranscript ? { segment: atSegment, word: atWord } : null), [isTranscript, atSegment, atWord]);
  const currentCue = useMemo(() => (content?.kind === 'caption' ? cuePosition(content, nowMs) : -1), [content, nowMs]);
  const followKey = position ? (position.segment < 0 ? null : `${position.segment}:${position.word}`) : currentCue < 0 ? null : String(currentCue);
  const rows = useRef<RowScroller>(null);
  const currentId = content?.kind === 'transcript' ? content.segments[position?.segment ?? -1]?.id : content?.cues[currentCue]?.id;
  const follow = useFollowPlayback(scroller, followKey, () => void (currentId !== undefined && rows.current?.reveal(currentId)));
  const { resume: resumeFollowing, pause: pauseFollowing } = follow;
  const seek = useCallback(
    (ms: number, play?: boolean) => {
      resumeFollowing();
      onSeek(ms, play);
    },
    [onSeek, resumeFollowing],
  );

  const placeCursor = useCallback((segmentId: string, word: number) => setCursor({ segmentId, word }), []);
  const clearCursor = useCallback(() => setCursor(null), []);
  const segmentActions = useSegmentActions(edit, { seek, registerDraft }, placeCursor, clearCursor);
  const cueActions = useCueActions(edit, { seek, registerDraft });
  const rules = useCaptionRules(history, say);
  useCueTiming({ content, edit, profile: rules.profile, nowMs, currentCue, say, readOnly: finished });
  useShowCaption(content?.kind === 'caption' ? (content.cues[currentCue]?.lines ?? null) : null);
  const { find, setFind, matches, selected, selectedMatch, step, replaceAll, firstInView } = useFind(history, rows, say, pauseFollowing);

  const save = useCallback(async () => {
    try {
      if (await doc.save()) say(online ? 'Saved.' : SAVED_HERE, false, { kind: 'sent' });
      return true;
    } catch (e) {
      say((e as Error).message, true);
      return false;
    }
  }, [doc, say, online]);
  const undo = () => {
    const label = history.undo();
    if (label) say(`Undid ${label}.`);
  };
  const redo = () => {
    const label = history.redo();
    if (label) say(`Redid ${label}.`);
  };
  useEditorKeys({ save: () => void save(), undo, redo, find: () => setFind((f) => f ?? NO_FIND) });
  const summary = content?.kind === 'transcript' ? content.summary : (doc.record?.body?.metadata as { summary?: string } | undefined)?.summary;
  useSettlingStatus(status, say, { localState: doc.record?.local_state, summary, online });

  if (doc.loadError) return <p className="error" role="alert">{doc.loadError}</p>;
  if (doc.record === null) return <p className="muted">This document is not in the local cache.</p>;
  if (!doc.record) return <div className="loading">Loading document…</div>;
  if (!content) return <p className="muted">This document has no content in the local cache yet; it comes with the next sync.</p>;

  const record = doc.record;
  const gone = () => {
    doc.discard();
    onDeleted();
  };

  return (
    <div className="editor">
      <EditorToolbar
        record={record}
        history={history}
        status={status}
        isTranscript={content.kind === 'transcript'}
        captions={captions}
        findOpen={find !== null}
        onSave={save}
        onUndo={undo}
        onRedo={redo}
        onToggleFind={() => setFind(find ? null : NO_FIND)}
        menu={{
          onEdit: edit,
          onSave: save,
          onStatus: say,
          summary,
          onOpenDocument,
          onMutated: (op) => {
            if (op === 'delete') gone();
            else if (op === 'clearText' || op === 'resetToOriginal') void doc.reloadDroppingEdits();
          },
        }}
      />
      <EditorNotices record={record} incoming={doc.incoming !== null} onAcceptIncoming={doc.acceptIncoming} onDiscarded={(isGone) => (isGone ? gone() : void doc.reloadDroppingEdits())} />
      {finished && <FinishedNotice record={record} />}
      {content.kind === 'transcript' ? (
        <SpeakerBar
          readOnly={finished}
          speakers={content.speakers}
          onRename={(id, name) => edit('rename speaker', (c) => renameSpeaker(c, id, name))}
          onMerge={(into, from, name) => edit('merge speakers', (c) => mergeSpeakersAs(c, into, from, name))}
          onAdd={() => edit('add speaker', (c) => addSpeaker(c, `Speaker ${c.speakers.length + 1}`).content)}
        />
      ) : (
        <>
          <CaptionRules readOnly={finished} content={content} profile={rules.profile} violations={rules.violations} onProfile={rules.setProfile} onFix={rules.fix} edit={edit} onShow={(id) => (pauseFollowing(), rows.current?.reveal(id))} />
          <CueWaveform readOnly={finished} sessionId={record.session_id} cues={content.cues} currentCue={currentCue} nowMs={nowMs} onSeek={seek} onRetime={cueActions.setTimes} />
        </>
      )}
      {find && <FindBar readOnly={finished} state={find} count={matches.length} selected={selected} firstInView={firstInView} onChange={setFind} onStep={step} onReplaceAll={replaceAll} onClose={() => setFind(null)} />}
      <div className="doc-scroll" ref={setScroller}>
        {summary && (
          <details className="summary">
            <summary>Summary</summary>
            <p>{summary}</p>
          </details>
        )}
        {content.kind === 'transcript' ? (
          <TranscriptView readOnly={finished} content={content} position={position!} cursor={cursor} matches={matches} selectedMatch={selectedMatch} actions={segmentActions} scroller={scroller} rows={rows} />
        ) : (
          <CaptionView readOnly={finished} content={content} currentCue={currentCue} violations={rules.violations} matches={matches} selectedMatch={selectedMatch} actions={cueActions} scroller={scroller} rows={rows} />
        )}
        {(content.kind === 'transcript' ? content.segments.length : content.cues.length) === 0 && <p className="muted">This document is empty.</p>}
      </div>
      <FollowButton hasMedia={hasMedia} paused={!follow.following && followKey !== null} onFollow={follow.resume} />
      <ShortcutLine transcript={content.kind === 'transcript'} />
    </div>
  );
}
