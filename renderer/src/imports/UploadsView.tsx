import { useState } from 'react';
import type { ImportItem, ImportState, ModelChoice } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { sentence } from '../lib/format';
import { bytes, eta } from '../watch/watchFormat';
import { requestNewTranscription } from './requests';
import { isActive, useImportItems } from './useImportItems';
import { useModels } from './useModels';
import './imports.css';

const STATE_LABEL: Record<ImportState, string> = {
  queued: 'Waiting',
  uploading: 'Uploading',
  transcribing: 'Transcribing',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * The upload queue of new transcriptions: each file with its state, the upload's bar with rate
 * and time left, the job's progress while it is transcribed, why it waits or failed, and cancel,
 * retry and "Open session" (which selects it in the session list).
 */
export function UploadsView({ onOpenSession }: { onOpenSession: (sessionId: string) => void }) {
  const { items, total, error, reload, put } = useImportItems();
  const { models } = useModels();
  const [actionError, setActionError] = useState<string | null>(null);
  const act = (fn: () => Promise<ImportItem>) =>
    fn().then(
      (item) => {
        setActionError(null);
        put(item);
      },
      (e: Error) => setActionError(e.message),
    );
  const finished = items.filter((i) => !isActive(i)).length;
  const active = items.length - finished;

  return (
    <section className="uploads" aria-labelledby="uploads-title">
      <div className="uploads-head">
        <h2 id="uploads-title">Uploads</h2>
        <span className="muted small">{active > 0 ? `${active} under way` : items.length ? 'Nothing under way' : ''}</span>
        <span className="spacer" />
        <button type="button" onClick={() => requestNewTranscription()}>
          New transcription
        </button>
        <button
          type="button"
          disabled={finished === 0}
          onClick={() =>
            call('imports.clearFinished', {}).then(
              () => reload(),
              (e: Error) => setActionError(e.message),
            )
          }
        >
          Clear finished
        </button>
      </div>
      {(error ?? actionError) && (
        <p className="error" role="alert">
          {error ?? actionError}
        </p>
      )}
      {items.length === 0 ? (
        <p className="muted empty-list">Nothing uploaded yet. Start a new transcription, or drop files anywhere on the window.</p>
      ) : (
        <ul className="upload-items" aria-label="Uploads">
          {items.map((i) => (
            <UploadRow key={i.itemId} item={i} models={models} act={act} onOpenSession={onOpenSession} />
          ))}
        </ul>
      )}
      {total > items.length && <p className="muted small">Showing the latest {items.length} of {total}.</p>}
    </section>
  );
}

function UploadRow({ item: i, models, act, onOpenSession }: { item: ImportItem; models: ModelChoice[]; act: (fn: () => Promise<ImportItem>) => void; onOpenSession: (id: string) => void }) {
  const nameId = `upload-${i.itemId}-name`;
  return (
    <li className={`upload-item ${i.state}`} aria-labelledby={nameId}>
      <span className="name" id={nameId} title={i.source.kind === 'path' ? i.source.path : i.name}>
        {i.name}
      </span>
      <span className={`state ${i.state}`}>{STATE_LABEL[i.state]}</span>
      <span className="detail">
        <Detail item={i} language={models.find((m) => m.key === i.options.language)?.name ?? i.options.language} />
      </span>
      <span className="actions">
        {i.sessionId && (
          <button type="button" className={i.state === 'done' ? 'primary' : undefined} onClick={() => onOpenSession(i.sessionId!)}>
            Open session
          </button>
        )}
        {isActive(i) && (
          <button type="button" onClick={() => act(() => call('imports.cancel', { itemId: i.itemId }))}>
            Cancel
          </button>
        )}
        {(i.state === 'failed' || i.state === 'cancelled') && (
          <button type="button" onClick={() => act(() => call('imports.retry', { itemId: i.itemId }))}>
            Retry
          </button>
        )}
      </span>
      {i.message && (
        <span className={`reason small ${i.state === 'failed' ? 'error' : 'muted'}`}>
          {i.state === 'queued' ? waitingFor(i.message) : sentence(i.message)}
        </span>
      )}
    </li>
  );
}

/** main's reason for a wait, as one sentence: "waiting for the service (…)" reads as it is, anything else after "Waiting:". */
function waitingFor(message: string): string {
  return /^waiting\b/i.test(message) ? sentence(message) : `Waiting: ${message}`;
}

function Detail({ item: i, language }: { item: ImportItem; language: string }) {
  if (i.state === 'uploading')
    return (
      <>
        <progress max={100} value={i.percent} aria-label={`Upload of ${i.name}`} />
        <span className="small muted">
          {i.percent.toFixed(0)}% of {bytes(i.bytesTotal)}
          {i.rate !== null && ` · ${bytes(i.rate)}/s`}
          {i.etaSeconds !== null && ` · ${eta(i.etaSeconds)}`}
        </span>
      </>
    );
  if (i.state === 'transcribing')
    return (
      <>
        <progress max={100} value={i.percent} aria-label={`Transcription of ${i.name}`} />
        <span className="small muted">{i.percent.toFixed(0)}% transcribed</span>
      </>
    );
  const what = `${language} · ${i.options.mode === 'decode' ? 'transcribe' : i.options.mode}`;
  return (
    <span className="small muted">
      {i.bytesTotal > 0 ? `${bytes(i.bytesTotal)} · ` : ''}
      {what}
    </span>
  );
}
