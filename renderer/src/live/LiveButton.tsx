/** The header's "Live" button, beside New transcription: opens the Live view (pressed while it shows). */
export function LiveButton(props: { pressed: boolean; recording: boolean; onClick: () => void }) {
  return (
    <button type="button" className={`live-button${props.recording ? ' recording' : ''}`} aria-pressed={props.pressed} onClick={props.onClick} title="Transcribe as someone speaks">
      {props.recording && <span className="live-dot" aria-hidden="true" />}
      Live
    </button>
  );
}
