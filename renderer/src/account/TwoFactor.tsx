import { useEffect, useRef, useState, type FormEvent } from 'react';
import { call } from '../lib/bridge';
import { useAction } from '../lib/useAction';
import { CopyButton } from '../ui/CopyButton';

type Step =
  | { kind: 'idle' }
  | { kind: 'scan'; qrCode: string; secret: string }
  | { kind: 'regenerate' }
  | { kind: 'disable' };

/**
 * Two-factor sign-in. On: scan the QR code, prove it with a code, keep the backup codes (shown
 * once). Then new backup codes (a current code) or off (a current code or a backup code).
 */
export function TwoFactor({ active, onChanged }: { active: boolean; onChanged: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  const { busy, problem, setProblem, run } = useAction();
  // A refused code: the focus goes back to the code to type again (the disabled button had it, so it fell to the page).
  const codeField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!problem) return;
    codeField.current?.focus();
    codeField.current?.select();
  }, [problem]);

  const go = (next: Step) => {
    setStep(next);
    setCode('');
    setProblem(null);
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      if (step.kind === 'scan') setBackupCodes((await call('account.mfaEnable', { code })).backupCodes);
      else if (step.kind === 'regenerate') setBackupCodes((await call('account.mfaBackupCodes', { code })).backupCodes);
      else if (step.kind === 'disable') await call('account.mfaDisable', { code });
      go({ kind: 'idle' });
      onChanged();
    });
  }

  const codeLabel = step.kind === 'disable' ? 'Code from your authenticator app, or a backup code' : 'Code from your authenticator app';

  return (
    <section className="account-section" aria-labelledby="mfa-title">
      <h3 id="mfa-title">Two-factor sign-in</h3>
      <p>
        {active ? 'On: signing in asks for a code from your authenticator app (or a backup code) after the password.' : 'Off: signing in needs only your password.'}
      </p>
      {backupCodes && (
        <div className="token-once" role="region" aria-label="Backup codes">
          <p>
            <strong>Save these backup codes now.</strong> They will not be shown again. Each works once, in place of a code from your app, if you lose it.
          </p>
          <ol className="backup-codes">
            {backupCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ol>
          <div className="row">
            <CopyButton text={backupCodes.join('\n')} label="Copy all" />
          </div>
          <button type="button" onClick={() => setBackupCodes(null)}>
            I have saved them
          </button>
        </div>
      )}
      {step.kind === 'idle' && (
        <div className="row">
          {!active && (
            <button type="button" className="primary" disabled={busy} onClick={() => void run(async () => go({ kind: 'scan', ...(await call('account.mfaStart', {})) }))}>
              Turn on two-factor
            </button>
          )}
          {active && (
            <>
              <button type="button" disabled={busy} onClick={() => go({ kind: 'regenerate' })}>
                New backup codes
              </button>
              <button type="button" className="danger" disabled={busy} onClick={() => go({ kind: 'disable' })}>
                Turn off two-factor
              </button>
            </>
          )}
        </div>
      )}
      {step.kind !== 'idle' && (
        <form className="mfa-form" onSubmit={submit} aria-label={step.kind === 'scan' ? 'Turn on two-factor' : step.kind === 'regenerate' ? 'New backup codes' : 'Turn off two-factor'}>
          {step.kind === 'scan' && (
            <div className="mfa-scan">
              <img src={step.qrCode} width={220} height={220} alt="QR code to add this account to your authenticator app" />
              <div>
                <p>Scan this with your authenticator app, then type the six-digit code it shows.</p>
                <p className="muted small">
                  Cannot scan? Enter this key in the app: <code className="secret">{step.secret}</code>
                </p>
              </div>
            </div>
          )}
          {step.kind === 'regenerate' && <p>New backup codes replace the old ones, which stop working.</p>}
          {step.kind === 'disable' && <p>Turning two-factor off also voids your backup codes.</p>}
          <label>
            {codeLabel}
            <input ref={codeField} name="mfa-code" autoComplete="one-time-code" inputMode={step.kind === 'disable' ? 'text' : 'numeric'} required value={code} onChange={(e) => setCode(e.target.value)} autoFocus />
          </label>
          <div className="row">
            <button type="button" disabled={busy} onClick={() => go({ kind: 'idle' })}>
              Cancel
            </button>
            <button type="submit" disabled={busy || !code.trim()}>
              {step.kind === 'scan' ? 'Turn on' : step.kind === 'regenerate' ? 'Make new codes' : 'Turn off'}
            </button>
          </div>
        </form>
      )}
      {problem && <p className="error" role="alert">{problem}</p>}
    </section>
  );
}
