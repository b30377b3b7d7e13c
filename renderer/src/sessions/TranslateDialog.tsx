import { useState } from 'react';
import type { DocumentSummary, TranslationChoice } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useAction } from '../lib/useAction';
import { useChannel } from '../lib/useChannel';
import { Dialog } from '../ui/Dialog';

const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'language' }) : null;
const languageName = (code: string) => {
  try {
    return names?.of(code.toLowerCase()) ?? code;
  } catch {
    return code;
  }
};

/**
 * Translates the document into a new one. The service's languages are all listed; those it
 * cannot serve are shown as unavailable with its reason, not hidden and not a surprise error.
 */
export function TranslateDialog(props: { doc: DocumentSummary; onClose: () => void; onStatus: (m: string, isError?: boolean) => void; onOpenDocument: (id: string) => void }) {
  const { doc } = props;
  const langs = useChannel('documents.translateLanguages', { documentId: doc.id });
  const [target, setTarget] = useState<TranslationChoice['code'] | ''>('');
  // A refusal re-reads the languages: the service may have said one is no longer available.
  const { busy, problem: error, run } = useAction(() => langs.reload());
  const list = langs.value?.languages ?? [];
  const chosen = list.find((l) => l.code === target);

  async function translate() {
    if (!target) return;
    await run(async () => {
      const r = await call('documents.translate', { documentId: doc.id, targetLanguage: target });
      props.onStatus(`Translated into ${languageName(target)}.`);
      props.onClose();
      props.onOpenDocument(r.documentId);
    });
  }

  return (
    <Dialog title={`Translate “${doc.filename}”`} onClose={props.onClose}>
      <div className="dialog-form">
        <label>
          Into
          <select aria-label="Target language" value={target} onChange={(e) => setTarget(e.target.value as TranslationChoice['code'])}>
            <option value="">Choose a language…</option>
            {list.map((l) => (
              <option key={l.code} value={l.code} disabled={!l.available}>
                {languageName(l.code)} ({l.code}){l.available ? '' : ' — unavailable'}
              </option>
            ))}
          </select>
        </label>
        {chosen && !chosen.available && <p className="muted small">{chosen.reason}</p>}
        <p className="muted small">The translation is a new document beside this one; times are kept per segment. It needs the service (not offline).</p>
        {busy && <progress aria-label="Translating" />}
        {error && <p className="error" role="alert">{error}</p>}
        <div className="dialog-actions">
          <button type="button" onClick={props.onClose}>Cancel</button>
          <button type="button" className="primary" disabled={!target || busy || (chosen && !chosen.available)} onClick={() => void translate()}>{busy ? 'Translating…' : 'Translate'}</button>
        </div>
      </div>
    </Dialog>
  );
}
