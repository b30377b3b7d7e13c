import { useState } from 'react';
import type { DocumentMutation, DocumentSummary } from '../../../common/ipc';
import { FINISHED_REFUSAL } from '../../../common/ipc/finished';
import { shiftTimings, type DocumentContent } from '../../../common/transcript';
import { call } from '../lib/bridge';
import { useOnline } from '../lib/useSyncState';
import { deletedWhere } from '../sessions/deletedWhere';
import { ConfirmDialog, PromptDialog } from '../ui/Dialog';
import { Menu, type MenuItem } from '../ui/Menu';
import { MergeDialog } from '../sessions/MergeDialog';
import { TranslateDialog } from '../sessions/TranslateDialog';
import { ShareDialog } from './ShareDialog';
import { rebuildMessage } from './captions/RebuildNotice';
import type { Say, Settles } from './useEdit';

type Action = 'finish' | 'rename' | 'copy' | 'merge' | 'translate' | 'share' | 'timecode' | 'shift' | 'summarize' | 'reset' | 'clear' | 'delete';
type MoreAction = 'rename' | 'timecode' | 'shift' | 'rebuild';
type AnyAction = Action | MoreAction;

const TIMECODE = /^\d{2}:\d{2}:\d{2}[:;]\d{2}$/;
/** What changes the document without going through its undo history (which a finished document locks): shown, not offered, while finished. */
const CHANGING: ReadonlySet<AnyAction> = new Set(['reset', 'clear', 'timecode', 'shift', 'rebuild']);

export interface DocumentMenuProps {
  doc: DocumentSummary;
  dirty: boolean;
  /** A short or narrow window: every action in one "Document" menu instead of a row of buttons. */
  compact?: boolean;
  /** A content edit that goes through undo/redo (shifting times is one). */
  onEdit: (label: string, fn: (c: DocumentContent) => DocumentContent) => void;
  /** Saves unsaved edits (false when that failed): marking finished keeps them first, since a finished document takes none. */
  onSave: () => Promise<boolean>;
  onStatus: Say;
  /** The summary shown now: a new request's notice changes when a different one arrives. */
  summary: string | undefined;
  onOpenDocument: (documentId: string) => void;
  /** A mutation went through (the editor drops its edits after delete, clear and reset). */
  onMutated: (op: DocumentMutation['op']) => void;
}

/**
 * Everything done to the document as a whole, through documents.mutate. The ones that throw work
 * away (reset, clear, delete) ask first; those the service computes (summary, reset, share) say
 * that the result comes with the next sync.
 */
export function DocumentMenu({ doc, dirty, compact = false, onEdit, onSave, onStatus, summary, onOpenDocument, onMutated }: DocumentMenuProps) {
  const [open, setOpen] = useState<Action | null>(null);
  const close = () => setOpen(null);
  const online = useOnline();
  const unsaved = dirty ? ' Your unsaved edits in this window are dropped too.' : '';
  // A finished document is read-only until reopened: what would change it is shown greyed, saying why.
  const locked = (id: AnyAction) => doc.finished && CHANGING.has(id);
  
  async function mutate(mutation: DocumentMutation, done: string, until?: Settles): Promise<string | null> {
    try {
      const r = await call('documents.mutate', { documentId: doc.id, mutation });
      onStatus(done, false, until);
      onMutated(mutation.op);
      return r.documentId;
    } catch (e) {
      onStatus((e as Error).message, true);
      return null;
    }
  }

  // The document's actions, in the order of the Document menu: everyday ones, then the rare ones, then the destructive ones.
  const actions: { id: Action; label: string; title: string; danger?: boolean }[] = [
    { id: 'finish', label: doc.finished ? 'Reopen' : 'Finalize', title: doc.finished ? 'Mark as not finished, to edit again' : 'Mark as finished' },
    { id: 'copy', label: 'Copy…', title: 'Make a copy of this document' },
    { id: 'merge', label: 'Merge…', title: 'Merge documents of this session into a new one' },
    { id: 'summarize', label: 'Summarize', title: 'Ask the service for a summary, stored in the document' },
    { id: 'translate', label: 'Translate…', title: 'Translate into a new document' },
    { id: 'share', label: 'Share…', title: 'Magic links: make, copy, revoke, send by e-mail' },
    { id: 'reset', label: 'Reset…', title: 'Back to what the speech engine first made', danger: true },
    { id: 'clear', label: 'Clear text…', title: 'Remove every word, keep the times', danger: true },
    { id: 'delete', label: 'Delete…', title: 'Delete this document', danger: true },
  ];
  const rare: MenuItem<MoreAction>[] = [
    { id: 'rename', label: 'Rename…' },
    { id: 'timecode', label: 'Timecode offset…' },
    { id: 'shift', label: 'Shift all times…' },
    ...(doc.type === 'caption' ? [{ id: 'rebuild' as const, label: 'Rebuild captions from transcript' }] : []),
  ];
  const share = actions.find((a) => a.id === 'share')!;

  // Cut again from the transcript with the caption profile in settings, hand edits over unchanged words kept (main/captions).
  async function rebuild() {
    if (dirty) return onStatus('Save your caption edits first, then rebuild them from the transcript.', true);
    try {
      onStatus(rebuildMessage(await call('captions.rebuild', { documentId: doc.id })));
    } catch (e) {
      onStatus((e as Error).message, true);
    }
  }

  async function finish() {
    if (!doc.finished && dirty && !(await onSave())) return;
    await mutate({ op: 'finalize', finished: !doc.finished }, doc.finished ? 'Reopened: marked as not finished.' : 'Marked as finished.');
  }

  const choose = (id: Action) => {
    if (locked(id)) return onStatus(FINISHED_REFUSAL, true);
    if (id === 'finish') void finish();
    else if (id === 'summarize') void mutate({ op: 'summarize' }, 'Summary requested: it appears here after the next sync.', { kind: 'summary', before: summary });
    else setOpen(id);
  };

  const chooseAny = (id: AnyAction) => (locked(id) ? onStatus(FINISHED_REFUSAL, true) : id === 'rebuild' ? void rebuild() : choose(id));
  // As desktop editors do: Share stays in view beside Export (in the menu too when the window is
  // compact); the rest is one Document menu, the destructive actions last and set apart by a line.
  const lockable = <K extends AnyAction>(m: MenuItem<K>): MenuItem<K> => (locked(m.id) ? { ...m, disabled: true, title: FINISHED_REFUSAL } : m);
  const menu: MenuItem<AnyAction>[] = [
    ...actions.filter((a) => !a.danger && (compact || a.id !== 'share')).map((a) => ({ id: a.id, label: a.label, title: a.title })),
    ...rare.map((m, i) => lockable({ ...m, separated: i === 0 })),
    ...actions.filter((a) => a.danger).map((a, i) => lockable<AnyAction>({ id: a.id, label: a.label, title: a.title, danger: true, separated: i === 0 })),
  ];

  return (
    <>
      <span className={compact ? 'doc-actions folded' : 'doc-actions'} role="group" aria-label="Document actions">
        {!compact && (
          <button type="button" title={share.title} onClick={() => choose('share')}>
            {share.label}
          </button>
        )}
        <Menu label="Document" items={menu} onChoose={chooseAny} />
      </span>
      {open === 'merge' && <MergeDialog doc={doc} onClose={close} onStatus={onStatus} />}
      {open === 'translate' && <TranslateDialog doc={doc} onClose={close} onStatus={onStatus} onOpenDocument={onOpenDocument} />}
      {open === 'rename' && (
        <PromptDialog title="Rename document" label="Name" initial={doc.filename} confirmLabel="Rename" onClose={close} onSubmit={(filename) => void mutate({ op: 'rename', filename }, `Renamed to ${filename}.`)} />
      )}
      {open === 'copy' && (
        <PromptDialog
          title="Make a copy"
          label="Name of the copy"
          initial={`${doc.filename.replace(/(\.[^.]+)?$/, ' (copy)$1')}`}
          confirmLabel="Make copy"
          onClose={close}
          onSubmit={(newFilename) =>
            void mutate({ op: 'copy', newFilename }, `Copied as ${newFilename}.`).then((id) => id && id !== doc.id && onOpenDocument(id))
          }
        />
      )}
      {open === 'timecode' && (
        <PromptDialog
          title="Timecode offset"
          label="Offset (HH:MM:SS:FF; ; before the frames for drop-frame)"
          initial={doc.timecode_offset || '00:00:00:00'}
          hint="Added to every time when exporting, for media that does not start at zero."
          confirmLabel="Set offset"
          check={(v) => (TIMECODE.test(v) ? null : 'Write it as HH:MM:SS:FF, for example 10:00:00:00.')}
          onClose={close}
          onSubmit={(timecodeOffset) => void mutate({ op: 'setTimecodeOffset', timecodeOffset }, `Timecode offset set to ${timecodeOffset}.`)}
        />
      )}
      {open === 'shift' && (
        <PromptDialog
          title="Shift all times"
          label="Seconds (negative moves earlier)"
          initial="0.5"
          hint="Moves every segment, word and cue; nothing goes below zero. Undo takes it back."
          confirmLabel="Shift"
          check={(v) => (/^[-+]?\d+(\.\d{1,3})?$/.test(v) ? null : 'A number of seconds, like 1.5 or -0.25.')}
          onClose={close}
          onSubmit={(v) => onEdit(`shift times by ${v} s`, (c) => shiftTimings(c, Math.round(Number(v) * 1000)))}
        />
      )}
      {open === 'share' && <ShareDialog documentId={doc.id} onClose={close} onStatus={onStatus} />}
      {open === 'reset' && (
        <ConfirmDialog
          title="Reset to original?"
          message={`Every edit to “${doc.filename}” goes back to what the speech engine first made.${unsaved}`}
          confirmLabel="Reset"
          danger
          onClose={close}
          onConfirm={() => void mutate({ op: 'resetToOriginal' }, 'Reset requested: the original text comes back with the next sync.')}
        />
      )}
      {open === 'clear' && (
        <ConfirmDialog
          title="Clear the text?"
          message={`Every word of “${doc.filename}” is removed; the segment and cue times stay, ready to type into.${unsaved}`}
          confirmLabel="Clear text"
          danger
          onClose={close}
          onConfirm={() => void mutate({ op: 'clearText' }, 'Text cleared.')}
        />
      )}
      {open === 'delete' && (
        <ConfirmDialog
          title="Delete this document?"
          message={`“${doc.filename}” is ${deletedWhere(online)}.${unsaved}`}
          confirmLabel="Delete"
          danger
          onClose={close}
          onConfirm={() => void mutate({ op: 'delete' }, 'Document deleted.')}
        />
      )}
    </>
  );
}
