/**
 * "Start a new transcription", from wherever it is asked (the header button, Ctrl/Cmd+N, the
 * app menu, a drop on the window), to the one ImportLayer that owns the dialog.
 */
import type { Dropped } from './pickedFiles';

export interface NewTranscriptionRequest {
  files: File[];
  /** Files inside dropped folders left out as not media. */
  leftOut: number;
}

type Listener = (request: NewTranscriptionRequest) => void;
const listeners = new Set<Listener>();

export function requestNewTranscription(dropped: Dropped = { files: [], leftOut: 0 }): void {
  listeners.forEach((l) => l({ files: dropped.files, leftOut: dropped.leftOut }));
}

export function onNewTranscriptionRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
