import { useEffect, useState } from 'react';
import type { DocumentContent, Segment } from '../../common/transcript';
import { replaceSegmentText, renameSpeaker, segmentText } from '../../common/transcript';
import { call } from './bridge';
import { ExportBar } from './ExportBar';
import { clock } from './format';

/** Edits a transcript (segments of timed words) or captions (cues), following playback. */
export function DocumentEditor({ documentId, nowMs, onSeek }: { documentId: string; nowMs: number; onSeek: (ms: number) => void }) {
  const [content, setContent] = useState<DocumentContent | null>(null);
  const [filename, setFilename] = useState('');
  const [dirty, setDirty] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    call('documents.get', { documentId }).then(
      (doc) => {
        setContent(doc?.body?.content ?? null);
        setFilename(doc?.filename ?? '');
        setDirty(false);
      },
      (e: Error) => setError(e.message),
    );
  }, [documentId]);

  const update = (next: DocumentContent) => {
    setContent(next);
    setDirty(true);
    setStatus(null);
  };

  async function save() {
    if (!content) return;
    try {
      await call('documents.save', { documentId, content });
      setDirty(false);
      setStatus('Saved. It is sent to the service when online.');
    } catch (e) {
      setError((e as Error).message);
    }
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 's') {
        e.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (error) return <p className="error" role="alert">{error}</p>;
  if (!content) return <div className="loading">Loading document…</div>;

  return (
    <div className="editor">
      <div className="toolbar">
        <button onClick={save} disabled={!dirty}>Save</button>
        {dirty && <span className="muted">Unsaved changes</span>}
        {status && <span className="ok">{status}</span>}
        <ExportBar documentId={documentId} filename={filename} />
      </div>
      {content.kind === 'transcript' ? (
        <ol className="segments" aria-label="Transcript">
          {content.segments.map((seg) => (
            <SegmentRow
              key={seg.id}
              segment={seg}
              speaker={content.speakers.find((s) => s.id === seg.speaker_id)?.name ?? null}
              nowMs={nowMs}
              onSeek={onSeek}
              onText={(text) => update({ ...content, segments: content.segments.map((s) => (s.id === seg.id ? replaceSegmentText(s, text) : s)) })}
              onRenameSpeaker={(name) => seg.speaker_id && update(renameSpeaker(content, seg.speaker_id, name))}
            />
          ))}
        </ol>
      ) : (
        <ol className="cues" aria-label="Captions">
          {content.cues.map((cue) => (
            <li key={cue.id} className={nowMs >= cue.start_ms && nowMs < cue.end_ms ? 'cue current' : 'cue'}>
              <button className="time" onClick={() => onSeek(cue.start_ms)}>
                {clock(cue.start_ms)} → {clock(cue.end_ms)}
              </button>
              <textarea
                aria-label={`Cue ${cue.id}`}
                value={cue.lines.join('\n')}
                rows={Math.max(1, cue.lines.length)}
                onChange={(e) => update({ ...content, cues: content.cues.map((c) => (c.id === cue.id ? { ...c, lines: e.target.value.split('\n') } : c)) })}
              />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function SegmentRow(props: { segment: Segment; speaker: string | null; nowMs: number; onSeek: (ms: number) => void; onText: (t: string) => void; onRenameSpeaker: (n: string) => void }) {
  const { segment, speaker, nowMs, onSeek } = props;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const active = nowMs >= segment.start_ms && nowMs < segment.end_ms;
  return (
    <li className={active ? 'segment current' : 'segment'}>
      <div className="seg-meta">
        <button className="time" onClick={() => onSeek(segment.start_ms)}>{clock(segment.start_ms)}</button>
        {speaker !== null && (
          <button className="speaker" title="Rename this speaker everywhere" onClick={() => { const n = prompt('Speaker name', speaker); if (n) props.onRenameSpeaker(n); }}>
            {speaker}
          </button>
        )}
      </div>
      {editing ? (
        <textarea
          className="seg-text"
          autoFocus
          value={draft}
          aria-label="Segment text"
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => {
            setEditing(false);
            if (draft !== segmentText(segment)) props.onText(draft);
          }}
          onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
        />
      ) : (
        <p className="seg-text" onDoubleClick={() => { setDraft(segmentText(segment)); setEditing(true); }} title="Double-click to edit; click a word to play from there">
          {segment.words.length === 0 && <span className="muted">(empty)</span>}
          {segment.words.map((w, i) => (
            <span key={i} className={`word${nowMs >= w.start_ms && nowMs < w.end_ms ? ' now' : ''}${w.confidence < 0.5 ? ' unsure' : ''}`} onClick={() => onSeek(w.start_ms)}>
              {w.text}{' '}
            </span>
          ))}
        </p>
      )}
    </li>
  );
}
