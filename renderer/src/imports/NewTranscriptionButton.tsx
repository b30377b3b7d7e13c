import { requestNewTranscription } from './requests';

/** The header's "New transcription" button. */
export function NewTranscriptionButton() {
  const mac = /Mac/.test(navigator.platform);
  return (
    <button type="button" className="primary new-transcription" onClick={() => requestNewTranscription()} aria-keyshortcuts={mac ? 'Meta+N' : 'Control+N'} title={`New transcription (${mac ? '⌘N' : 'Ctrl+N'})`}>
      New transcription
    </button>
  );
}
