import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import './ui.css';

/**
 * A modal dialog on the native <dialog>: the browser traps focus, makes the page behind inert and
 * closes on Escape; focus goes back to where it was when it closes.
 */
export function Dialog({ title, onClose, children, className }: { title: string; onClose: () => void; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.showModal();
    return () => opener?.focus?.();
  }, []);
  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h3 id={titleId}>{title}</h3>
      {children}
    </dialog>
  );
}

/** "Are you sure?" for actions that throw work away. */
export function ConfirmDialog(props: { title: string; message: string; confirmLabel: string; danger?: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <p>{props.message}</p>
      <div className="dialog-actions">
        <button type="button" onClick={props.onClose} autoFocus>Cancel</button>
        <button type="button" className={props.danger ? 'danger' : 'primary'} onClick={() => { props.onConfirm(); props.onClose(); }}>
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** Asks for one line of text; `check` answers why a value is refused, or null. */
export function PromptDialog(props: {
  title: string;
  label: string;
  initial: string;
  confirmLabel: string;
  hint?: string;
  check?: (value: string) => string | null;
  onSubmit: (value: string) => void;
  onClose: () => void;
}) {
  const [value, setValue] = useState(props.initial);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const why = props.check?.(value.trim()) ?? (value.trim() ? null : 'This cannot be empty.');
    if (why) return setProblem(why);
    props.onSubmit(value.trim());
    props.onClose();
  };
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form onSubmit={submit} className="dialog-form">
        <label htmlFor={inputId}>{props.label}</label>
        <input id={inputId} value={value} autoFocus onFocus={(e) => e.currentTarget.select()} aria-invalid={problem !== null} onChange={(e) => { setValue(e.target.value); setProblem(null); }} />
        {props.hint && <p className="muted small">{props.hint}</p>}
        {problem && <p className="error" role="alert">{problem}</p>}
        <div className="dialog-actions">
          <button type="button" onClick={props.onClose}>Cancel</button>
          <button type="submit" className="primary">{props.confirmLabel}</button>
        </div>
      </form>
    </Dialog>
  );
}
