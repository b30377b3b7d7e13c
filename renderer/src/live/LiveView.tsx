/**
 * The Live view: choose the input and the language, watch the level, start, pause, stop. Finished
 * phrases show as they come, the phrase being spoken below them in grey; the view follows the
 * newest words unless the person has scrolled back. main holds the recording and the connection
 * (live.*); every notice here is drawn from the state main reports, so it changes when that does.
 */
import { useEffect, useRef, useState } from 'react';
import type { LiveState } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';
import { LanguageSelect } from '../imports/LanguageSelect';
import { usableLanguage, useModels } from '../imports/useModels';
import { useCapture, useInputs } from './useCapture';
import { LiveTranscript } from './LiveTranscript';
import './live.css';

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** One sentence on where things stand, from the state alone. */
export function liveNotice(s: LiveState): string {
  switch (s.status) {
    case 'idle':
      return 'Choose the input and the language, then Start. The recording is kept on this computer as it is made.';
    case 'recording':
      return s.connection === 'connected' ? `Recording ${clock(s.recordedMs)}. Words appear as they are spoken.` : s.connection === 'connecting' ? `Recording ${clock(s.recordedMs)}. Connecting to the service…` : `Recording ${clock(s.recordedMs)}. Reconnecting: ${s.message ?? 'the service cannot be reached.'}`;
    case 'paused':
      return `Paused at ${clock(s.recordedMs)}. Nothing is recorded until you resume.`;
    case 'finishing':
      return s.connection === 'connected' ? `Stopped at ${clock(s.recordedMs)}. The service is finishing the last words…` : `Stopped at ${clock(s.recordedMs)}. Waiting for the service to finish the transcript: ${s.message ?? 'it cannot be reached.'}`;
    case 'finished':
      return `Finished: ${clock(s.recordedMs)} recorded and transcribed. The session opens in the editor.`;
    case 'uploaded':
      return s.message ?? 'The recording is being transcribed as an upload: see Uploads.';
    case 'failed':
      return s.message ?? 'Live transcription stopped.';
  }
}

export function LiveView(props: { hidden: boolean; onOpenSession: (sessionId: string) => void; onShowUploads: () => void }) {
  const [state, setState] = useState<LiveState | null>(null);
  const [deviceId, setDeviceId] = useState<string>('');
  const [language, setLanguage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { models, loading, error: modelsError } = useModels();
  const { inputs, refresh } = useInputs();
  const capture = useCapture();
  const status = useRef<LiveState['status']>('idle');

  useEffect(() => {
    void call('live.state', {}).then(setState);
    return subscribe('live.changed', setState);
  }, []);
  useEffect(() => {
    if (!language && models.length > 0) setLanguage(usableLanguage(models, 'en'));
  }, [models, language]);
  status.current = state?.status ?? 'idle';

  // Capture runs while recording or paused (paused audio is not sent), and stops with the recording.
  const active = state?.status === 'recording' || state?.status === 'paused';
  const { stop: stopCapture } = capture;
  useEffect(() => {
    if (!active) stopCapture();
  }, [active, stopCapture]);

  // The finished session opens in the editor once the sync has brought it.
  const openSession = useRef(props.onOpenSession);
  openSession.current = props.onOpenSession;
  const finishedId = state?.status === 'finished' ? state.sessionId : null;
  useEffect(() => {
    if (!finishedId) return;
    let done = false;
    const tryOpen = async () => {
      if (done) return;
      const found = await call('sessions.get', { sessionId: finishedId }).catch(() => null);
      if (found && found.session.status === 'completed' && !done) {
        done = true;
        await call('live.reset', {});
        openSession.current(finishedId);
      }
    };
    void tryOpen();
    const timer = setInterval(() => {
      void call('sync.now', {}).catch(() => null);
      void tryOpen();
    }, 1500);
    const off = subscribe('cache.changed', () => void tryOpen());
    return () => {
      done = true;
      clearInterval(timer);
      off();
    };
  }, [finishedId]);

  const start = async () => {
    setError(null);
    try {
      await call('live.start', { language });
      await capture.start(deviceId || null, (pcm) => {
        if (status.current === 'recording') void call('live.audio', { pcm }).catch(() => null);
      });
      refresh(); // labels are known once the input is allowed
    } catch (e) {
      setError(`The input could not be opened: ${(e as Error).message}`);
      await call('live.stop', {}).catch(() => null);
    }
  };

  if (!state) return <section className="live-view" hidden={props.hidden} aria-busy="true" />;
  const notice = liveNotice(state);
  const busy = state.status === 'finishing';
  return (
    <section className="live-view" hidden={props.hidden} aria-labelledby="live-title" data-status={state.status} data-connection={state.connection}>
      <h2 id="live-title">Live transcription</h2>
      <div className="live-controls">
        <div className="live-input">
          <label htmlFor="live-device">Input</label>
          <select id="live-device" value={deviceId} onChange={(e) => setDeviceId(e.target.value)} disabled={active || busy}>
            <option value="">Default input</option>
            {inputs
              .filter((i) => i.deviceId && i.deviceId !== 'default')
              .map((i) => (
                <option key={i.deviceId} value={i.deviceId}>
                  {i.label}
                </option>
              ))}
          </select>
          <span className="small muted">For the computer's own sound (a call), choose a "Monitor of …" input where there is one.</span>
        </div>
        <LanguageSelect models={models} value={language} onChange={setLanguage} loading={loading} error={modelsError} compact />
        <div className="live-level" aria-label="Input level">
          <span className="small muted">Level</span>
          <meter min={0} max={1} low={0.6} high={0.9} optimum={0.3} value={capture.level} aria-label="Input level" />
        </div>
        <div className="live-buttons">
          {(state.status === 'idle' || state.status === 'finished') && (
            <button type="button" className="primary" onClick={() => void start()} disabled={!language}>
              Start
            </button>
          )}
          {active && (
            <button type="button" onClick={() => void call('live.pause', { paused: state.status === 'recording' })}>
              {state.status === 'paused' ? 'Resume' : 'Pause'}
            </button>
          )}
          {active && (
            <button type="button" className="danger" onClick={() => void call('live.stop', {})}>
              Stop
            </button>
          )}
          {state.status === 'uploaded' && (
            <button type="button" className="primary" onClick={props.onShowUploads}>
              Show uploads
            </button>
          )}
          {(state.status === 'failed' || state.status === 'uploaded') && (
            <button type="button" onClick={() => void call('live.reset', {})}>
              Start again
            </button>
          )}
        </div>
      </div>
      <p className={`live-notice ${state.status === 'failed' || (active && state.connection === 'reconnecting') ? 'warn' : ''}`} role="status">
        {notice}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <LiveTranscript phrases={state.phrases} partial={state.partial} />
    </section>
  );
}
