import type { DocumentRecord, DocumentSummary } from '../../../common/ipc';
import type { DocumentContent } from '../../../common/transcript';
import { DocumentMenu, type DocumentMenuProps } from './DocumentMenu';
import { ExportBar } from './ExportBar';
import { useCompactEditor } from './useCompactEditor';
import type { Status } from './useEdit';
import type { History } from './useHistory';

/** Save, undo and redo, what happened last, find, export and the document's menu. */
export function EditorToolbar(props: {
  record: DocumentRecord;
  history: History<DocumentContent>;
  status: Status | null;
  isTranscript: boolean;
  captions: DocumentSummary | null;
  findOpen: boolean;
  onSave: () => Promise<boolean>;
  onUndo: () => void;
  onRedo: () => void;
  onToggleFind: () => void;
  menu: Omit<DocumentMenuProps, 'doc' | 'dirty' | 'compact'>;
}) {
  const { record, history, status } = props;
  const compact = useCompactEditor();
  return (
    <div className={`toolbar${compact ? ' compact' : ''}${history.dirty ? ' dirty' : ''}`}>
      <button type="button" onClick={() => void props.onSave()} disabled={!history.dirty} title="Save (Ctrl+S)">Save</button>
      <button type="button" className="icon" aria-label="Undo" title={history.undoLabel ? `Undo ${history.undoLabel} (Ctrl+Z)` : 'Nothing to undo'} disabled={!history.undoLabel} onClick={props.onUndo}>
        <span aria-hidden="true">↶</span>
      </button>
      <button type="button" className="icon" aria-label="Redo" title={history.redoLabel ? `Redo ${history.redoLabel} (Ctrl+Shift+Z)` : 'Nothing to redo'} disabled={!history.redoLabel} onClick={props.onRedo}>
        <span aria-hidden="true">↷</span>
      </button>
      {history.dirty && <span className="muted small unsaved">Unsaved changes</span>}
      {status && (
        <span className={status.error ? 'error small' : 'ok small'} role={status.error ? 'alert' : 'status'}>
          {status.text}
        </span>
      )}
      {record.finished && <span className="state-pill">Finished</span>}
      <span className="spacer" />
      <button type="button" aria-label="Find and replace" aria-pressed={props.findOpen} title="Find and replace (Ctrl+F)" onClick={props.onToggleFind}>
        Find
      </button>
      <ExportBar documentId={record.id} isTranscript={props.isTranscript} captions={props.captions} saveFirst={history.dirty ? props.onSave : null} />
      <DocumentMenu doc={record} dirty={history.dirty} compact={compact} {...props.menu} />
    </div>
  );
}
