import { useAsync } from '../lib/useAsync';
import { call } from '../lib/bridge';
import { ApiTokens } from './ApiTokens';
import { LiveAddress } from './LiveAddress';
import { TwoFactor } from './TwoFactor';
import './account-page.css';

const PROVIDERS: Record<string, string> = { local: 'E-mail and password', microsoft: 'Microsoft (single sign-on)' };

/** A role as a word (Customer), not the service's upper-case code (CUSTOMER). */
const role = (code: string) => code.charAt(0) + code.slice(1).toLowerCase();

/** Who is signed in, their API tokens, a service's live address and two-factor sign-in: each change asks for the proof the service wants. */
export function AccountPage() {
  const profile = useAsync(() => call('account.profile', {}), []);
  const p = profile.value;
  return (
    <section className="account-page" aria-label="Account">
      <h2>Account</h2>
      {profile.error && <p className="error" role="alert">{profile.error}</p>}
      {p && (
        <dl className="account-facts">
          <dt>Name</dt>
          <dd>{p.name}</dd>
          <dt>E-mail</dt>
          <dd>{p.email}</dd>
          <dt>Roles</dt>
          <dd>{p.roles.map(role).join(', ') || 'none'}</dd>
          <dt>Signs in with</dt>
          <dd>{PROVIDERS[p.identityProvider] ?? p.identityProvider}</dd>
          <dt>Service</dt>
          <dd className="url">{p.serviceUrl}</dd>
        </dl>
      )}
      <ApiTokens />
      <LiveAddress />
      {p && <TwoFactor active={p.twoFactorActive} onChanged={profile.reload} />}
    </section>
  );
}
