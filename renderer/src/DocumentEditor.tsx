import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  addSpeaker,
  assignSpeaker,
  CAPTION_PROFILES,
  DEFAULT_CAPTION_PROFILE,
  checkCaptions,
  EditError,
  findText,
  fixCaptions,
  mergeCues,
  mergeSegments,
  renameSpeaker,
  replaceSegmentText,
  replaceText,
  splitCue,
  splitSegment,
  type CaptionProfileId,
  type DocumentContent,
  type TranscriptContent,
} from '../../common/transcript';
import { CaptionRules } from './CaptionRules';
import { CaptionView } from './CaptionView';
import type { CueActions } from './CueRow';
import { DocumentMenu } from './DocumentMenu';
import { ExportBar } from './ExportBar';
import { FindBar, NO_FIND, type FindState } from './FindBar';
import { cuePosition, transcriptPosition } from './playback';
import type { SegmentActions } from './SegmentRow';
import { SpeakerBar } from './SpeakerBar';
import { TranscriptView } from './TranscriptView';
import { UnsentNotice } from './UnsentNotice';
import { useEditableDocument } from './useEditableDocument';
import { useEditorKeys } from './useEditorKeys';
import { useFollowPlayback } from './useFollowPlayback';
import { useStoredChoice } from './useStoredChoice';

export interface DocumentEditorProps {
  documentId: string;
  nowMs: number;
  onSeek: (ms: number, play?: boolean) => void;
  /** Another document of the session should open (a copy just made). */
  onOpenDocument: (documentId: string) => void;
  onDeleted: () => void;
}

const PROFILE_IDS = Object.keys(CAPTION_PROFILES) as CaptionProfileId[];

interface Status {
  text: string;
  error: boolean;
}

function withSegmentText(t: TranscriptContent, segmentId: string, text: string): TranscriptContent {
  return { ...t, segments: t.segments.map((s) => (s.id === segmentId ? replaceSegmentText(s, text) : s)) };
}

/**
 * Edits a transcript (segments of timed words) or captions (cues) in step with playback. Every
 * change is one of common/transcript's pure operations applied to the whole content and pushed
 * onto an undo history; saving hands the content to the cache, which sends it when online.
 */
export function DocumentEditor({ documentId, nowMs, onSeek, onOpenDocument, onDeleted }: DocumentEditorProps) {
  const doc = useEditableDocument(documentId);
  const { history, registerDraft } = doc;
  const { push, latest } = history;
  const content = history.present;
  const [status, setStatus] = useState<Status | null>(null);
  const [cursor, setCursor] = useState<{ segmentId: string; word: number } | null>(null);
  const [find, setFind] = useState<FindState | null>(null);
  const [profile, setProfile] = useStoredChoice<CaptionProfileId>('s2t.captionProfile', DEFAULT_CAPTION_PROFILE, PROFILE_IDS);
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);

  const say = useCallback((text: string, error = false) => setStatus({ text, error }), []);

  /** Applies one pure operation to the newest content; `refusal` explains an EditError in plain words. */
  const edit = useCallback(
    (label: string, fn: (c: DocumentContent) => DocumentContent, refusal?: string) => {
      const current = latest();
      if (!current) return;
      try {
        const next = fn(current);
        if (next === current) return;
        push(next, label);
        setStatus(null);
      } catch (e) {
        say(e instanceof EditError && refusal ? refusal : (e as Error).message, true);
      }
    },
    [latest, push, say],
  );

  // Where playback is, and keeping it in view.
  const position = useMemo(() => (content?.kind === 'transcript' ? transcriptPosition(content, nowMs) : null), [content, nowMs]);
  const currentCue = useMemo(() => (content?.kind === 'caption' ? cuePosition(content, nowMs) : -1), [content, nowMs]);
  const followKey = position ? (position.segment < 0 ? null : `${position.segment}:${position.word}`) : currentCue < 0 ? null : String(currentCue);
  const follow = useFollowPlayback(scroller, followKey);
  const { resume: resumeFollowing, pause: pauseFollowing } = follow;
  const seek = useCallback(
    (ms: number, play?: boolean) => {
      resumeFollowing();
      onSeek(ms, play);
    },
    [onSeek, resumeFollowing],
  );

  const segmentActions = useMemo<SegmentActions>(
    () => ({
      seek,
      registerDraft,
      placeCursor: (segmentId, word) => setCursor({ segmentId, word }),
      setText: (id, text) => edit('edit text', (c) => (c.kind === 'transcript' ? withSegmentText(c, id, text) : c)),
      split: (id, atWord, text) => {
        setCursor(null);
        edit('split segment', (c) => (c.kind === 'transcript' ? splitSegment(text === undefined ? c : withSegmentText(c, id, text), id, atWord) : c), 'Put the cursor between two words to split there.');
      },
      mergeWithNext: (id) =>
        edit('merge segments', (c) => {
          if (c.kind !== 'transcript') return c;
          const i = c.segments.findIndex((s) => s.id === id);
          return mergeSegments(c, id, c.segments[i + 1]?.id ?? '');
        }, 'There is no next segment to merge with.'),
      assignSpeaker: (id, speakerId) => edit('assign speaker', (c) => assignSpeaker(c, id, speakerId)),
    }),
    [seek, registerDraft, edit],
  );

  const cueActions = useMemo<CueActions>(
    () => ({
      seek,
      registerDraft,
      setLines: (id, lines) => edit('edit cue text', (c) => (c.kind === 'caption' ? { ...c, cues: c.cues.map((q) => (q.id === id ? { ...q, lines } : q)) } : c)),
      setTimes: (id, start_ms, end_ms) => edit('change cue times', (c) => (c.kind === 'caption' ? { ...c, cues: c.cues.map((q) => (q.id === id ? { ...q, start_ms, end_ms } : q)) } : c)),
      split: (id, atChar, lines) =>
        edit('split cue', (c) => (c.kind === 'caption' ? splitCue({ ...c, cues: c.cues.map((q) => (q.id === id ? { ...q, lines } : q)) }, id, atChar) : c), 'Click in the text between two words, then split.'),
      mergeWithNext: (id) =>
        edit('merge cues', (c) => {
          if (c.kind !== 'caption') return c;
          const i = c.cues.findIndex((q) => q.id === id);
          return mergeCues(c, id, c.cues[i + 1]?.id ?? '');
        }, 'There is no next cue to merge with.'),
    }),
    [seek, registerDraft, edit],
  );

  // Caption rules, checked on every change.
  const violations = useMemo(() => (content?.kind === 'caption' ? checkCaptions(content, profile) : []), [content, profile]);
  const fix = () => {
    const current = latest();
    if (current?.kind !== 'caption') return;
    const { content: fixed, remaining } = fixCaptions(current, profile);
    push(fixed, 'fix captions');
    say(remaining.length ? `Fixed what could be fixed; ${remaining.length} problem${remaining.length > 1 ? 's' : ''} need a person.` : 'Fixed: every cue follows the rules.');
  };

  // Find and replace.
  const query = find?.query ?? '';
  const caseSensitive = find?.caseSensitive ?? false;
  const wholeWord = find?.wholeWord ?? false;
  const matches = useMemo(() => (content && query ? findText(content, query, { caseSensitive, wholeWord }) : []), [content, query, caseSensitive, wholeWord]);
  const selectedMatch = find && matches.length ? matches[find.at % matches.length] : null;
  const step = (delta: number) => {
    if (!find || !matches.length) return;
    pauseFollowing();
    setFind({ ...find, at: (find.at + delta + matches.length) % matches.length });
  };
  useEffect(() => {
    if (!selectedMatch || !scroller) return;
    scroller.querySelector(`[data-item="${CSS.escape(selectedMatch.item_id)}"]`)?.scrollIntoView({ block: 'center' });
  }, [selectedMatch, scroller]);
  const replaceAll = () => {
    const current = latest();
    if (!current || !find) return;
    const r = replaceText(current, query, find.replacement, { caseSensitive, wholeWord });
    if (!r.matches.length) return;
    push(r.content, 'replace all');
    say(`Replaced ${r.matches.length} place${r.matches.length > 1 ? 's' : ''}.`);
  };

  const save = useCallback(async () => {
    try {
      if (await doc.save()) say('Saved. It is sent to the service when online.');
      return true;
    } catch (e) {
      say((e as Error).message, true);
      return false;
    }
  }, [doc, say]);
  const undo = () => {
    const label = history.undo();
    if (label) say(`Undid ${label}.`);
  };
  const redo = () => {
    const label = history.redo();
    if (label) say(`Redid ${label}.`);
  };
  useEditorKeys({ save: () => void save(), undo, redo, find: () => setFind((f) => f ?? NO_FIND) });

  if (doc.loadError) return <p className="error" role="alert">{doc.loadError}</p>;
  if (doc.record === null) return <p className="muted">This document is not in the local cache.</p>;
  if (!doc.record) return <div className="loading">Loading document…</div>;
  if (!content) return <p className="muted">This document has no content in the local cache yet; it comes with the next sync.</p>;

  const record = doc.record;
  const summary = content.kind === 'transcript' ? content.summary : (record.body?.metadata as { summary?: string } | undefined)?.summary;

  return (
    <div className="editor">
      <div className="toolbar">
        <button type="button" onClick={() => void save()} disabled={!history.dirty} title="Save (Ctrl+S)">Save</button>
        <button type="button" className="icon" aria-label="Undo" title={history.undoLabel ? `Undo ${history.undoLabel} (Ctrl+Z)` : 'Nothing to undo'} disabled={!history.undoLabel} onClick={undo}>
          <span aria-hidden="true">↶</span>
        </button>
        <button type="button" className="icon" aria-label="Redo" title={history.redoLabel ? `Redo ${history.redoLabel} (Ctrl+Shift+Z)` : 'Nothing to redo'} disabled={!history.redoLabel} onClick={redo}>
          <span aria-hidden="true">↷</span>
        </button>
        {history.dirty && <span className="muted small">Unsaved changes</span>}
        {status && (
          <span className={status.error ? 'error small' : 'ok small'} role={status.error ? 'alert' : 'status'}>
            {status.text}
          </span>
        )}
        {record.finished && <span className="state-pill">Finished</span>}
        <span className="spacer" />
        <button type="button" aria-label="Find and replace" aria-pressed={find !== null} title="Find and replace (Ctrl+F)" onClick={() => setFind(find ? null : NO_FIND)}>
          Find
        </button>
        <ExportBar documentId={documentId} isTranscript={content.kind === 'transcript'} saveFirst={history.dirty ? save : null} />
        <DocumentMenu
          doc={record}
          dirty={history.dirty}
          onEdit={edit}
          onStatus={say}
          onOpenDocument={onOpenDocument}
          onMutated={(op) => {
            if (op === 'delete') {
              doc.discard();
              onDeleted();
            } else if (op === 'clearText' || op === 'resetToOriginal') void doc.reloadDroppingEdits();
          }}
        />
      </div>
      {record.unsent_reason ? (
        <UnsentNotice documentId={record.id} filename={record.filename} reason={record.unsent_reason} onDiscarded={(gone) => (gone ? (doc.discard(), onDeleted()) : void doc.reloadDroppingEdits())} />
      ) : (
        record.local_state === 'conflict' && (
          <p className="notice warn" role="status">
            The service changed this document while you edited it. Where you both changed the same place, your version is here and the other is kept as a conflict copy beside it.
          </p>
        )
      )}
      {doc.incoming && (
        <p className="notice" role="status">
          A newer version of this document arrived (from a sync or another window).{' '}
          <button type="button" className="link" onClick={doc.acceptIncoming}>Show it and drop my unsaved edits</button>
        </p>
      )}
      {content.kind === 'transcript' ? (
        <SpeakerBar
          speakers={content.speakers}
          onRename={(id, name) => edit('rename speaker', (c) => renameSpeaker(c, id, name))}
          onAdd={() => edit('add speaker', (c) => addSpeaker(c, `Speaker ${c.speakers.length + 1}`).content)}
        />
      ) : (
        <CaptionRules profile={profile} violations={violations} cues={content.cues.length} onProfile={setProfile} onFix={fix} />
      )}
      {find && <FindBar state={find} count={matches.length} onChange={setFind} onStep={step} onReplaceAll={replaceAll} onClose={() => setFind(null)} />}
      <div className="doc-scroll" ref={setScroller}>
        {summary && (
          <details className="summary">
            <summary>Summary</summary>
            <p>{summary}</p>
          </details>
        )}
        {content.kind === 'transcript' ? (
          <TranscriptView content={content} position={position!} cursor={cursor} matches={matches} selectedMatch={selectedMatch} actions={segmentActions} />
        ) : (
          <CaptionView content={content} currentCue={currentCue} violations={violations} matches={matches} selectedMatch={selectedMatch} actions={cueActions} />
        )}
        {(content.kind === 'transcript' ? content.segments.length : content.cues.length) === 0 && <p className="muted">This document is empty.</p>}
      </div>
      {!follow.following && followKey !== null && (
        <button type="button" className="follow" onClick={follow.resume}>
          Follow playback
        </button>
      )}
      <p className="shortcuts muted small">
        <kbd>Space</kbd> or <kbd>K</kbd> play/pause · <kbd>J</kbd> <kbd>L</kbd> back/forward 5 s · click a word to go there · <kbd>Ctrl</kbd>+<kbd>S</kbd> save · <kbd>Ctrl</kbd>+<kbd>Z</kbd> undo
      </p>
    </div>
  );
}
