/**
 * What one item asks of the service, whichever way it came: a watched file takes its folder's
 * profile (and the align text beside it); an import carries the dialog's options and the text
 * read when it was added. The queue builds its upload, legacy session and transcribe call from this.
 */
import { basename } from 'node:path';
import { TranscriptionOptions, ImportSource, type WatchFolder } from '../../common/ipc';
import { alignText } from './align-text';
import type { ItemRow } from './store';

export interface JobSpec {
  language: string;
  mode: 'decode' | 'align' | 'upload';
  diarization: boolean;
  punctuation: boolean;
  allowProfanity: boolean;
  maskProfanity: boolean;
  keepMedia: boolean;
  glossaryId: string | number | null;
  customModelId: string | number | null;
  /** The engine chosen for it; null: the service's choice. */
  speechEngine: string | null;
  /** align: the text to place; upload: the caption or transcript document. */
  text: string | null;
  /** The service downloads the media from here (an import of a URL). */
  mediaSource: string | null;
  /** The session's name on the service. */
  filename: string;
}

export function jobSpec(item: ItemRow, folder: WatchFolder): JobSpec {
  if (item.options) {
    const o = TranscriptionOptions.parse(JSON.parse(item.options));
    const source = item.source ? ImportSource.parse(JSON.parse(item.source)) : null;
    return {
      language: o.language,
      mode: o.mode,
      diarization: o.diarization && o.mode !== 'upload',
      punctuation: o.punctuation,
      allowProfanity: o.allowProfanity,
      maskProfanity: o.maskProfanity,
      keepMedia: o.keepMedia,
      glossaryId: o.glossaryId,
      customModelId: o.customModelId,
      speechEngine: o.mode === 'upload' ? null : o.speechEngine,
      text: o.mode === 'decode' ? null : item.text,
      mediaSource: source?.kind === 'url' ? source.url : null,
      filename: item.name ?? basename(item.path),
    };
  }
  const p = folder.profile;
  // auto: align when a text sits beside the media, decode otherwise.
  const text = p.sessionMode === 'decode' ? null : alignText(item.path);
  return {
    language: p.language,
    mode: text !== null ? 'align' : p.sessionMode === 'align' ? 'align' : 'decode',
    diarization: p.diarization,
    punctuation: p.punctuation,
    allowProfanity: p.allowProfanity,
    maskProfanity: p.maskProfanity,
    keepMedia: false,
    glossaryId: p.glossaryId,
    customModelId: p.customModelId,
    speechEngine: p.speechEngine,
    text,
    mediaSource: null,
    filename: basename(item.path),
  };
}
