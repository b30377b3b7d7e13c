/**
 * The engine a person chose goes into the batch transcribe request as speech_engine: from a watch
 * folder's profile and from New transcription's options; none is sent for the service's own
 * choice, nor for an upload of a finished document (no engine runs).
 */
import { describe, expect, it } from 'vitest';
import { TranscriptionOptions, WatchProfile, type WatchFolder } from '../../../common/ipc';
import { transcribeBody } from '../../../main/watch/job-calls';
import { jobSpec } from '../../../main/watch/job-spec';
import type { ItemRow } from '../../../main/watch/store';

const folder = (speechEngine: string | null): WatchFolder => ({ id: 'f1', path: '/tmp/in', paused: false, profile: WatchProfile.parse({ language: 'en-US', sessionMode: 'decode', speechEngine }) });
const item = (options: object | null): ItemRow => ({ id: 1, folder_id: 'f1', path: '/tmp/in/talk.wav', file_id: 'file-1', options: options ? JSON.stringify(options) : null, source: null } as unknown as ItemRow);
const engineOf = (row: ItemRow, f: WatchFolder) => transcribeBody(row, jobSpec(row, f)).speech_engine;

describe('the chosen speech engine in the transcribe request', () => {
  it('a watch folder sends its profile\'s engine, and none for the service\'s choice', () => {
    expect(engineOf(item(null), folder('whisper:small'))).toBe('whisper:small');
    expect(engineOf(item(null), folder(null))).toBeUndefined();
  });

  it('an import sends its options\' engine; an upload of a finished document sends none', () => {
    const options = (o: object) => TranscriptionOptions.parse({ language: 'en-US', ...o });
    expect(engineOf(item(options({ speechEngine: 'pocketsphinx' })), folder(null))).toBe('pocketsphinx');
    expect(engineOf(item(options({})), folder(null))).toBeUndefined();
    expect(engineOf(item(options({ mode: 'upload', speechEngine: 'pocketsphinx' })), folder(null))).toBeUndefined();
  });

  it('refuses an engine name that is not one the service could have', () => {
    expect(WatchProfile.safeParse({ speechEngine: 'whisper:../../etc' }).success).toBe(false);
    expect(TranscriptionOptions.safeParse({ language: 'en', speechEngine: 'x'.repeat(200) }).success).toBe(false);
  });
});
