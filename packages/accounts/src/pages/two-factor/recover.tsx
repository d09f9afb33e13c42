// /two-factor/recover: a lost authenticator app got around with the recovery key, which turns
// two-factor authentication off (docs/protocol.md#lost-second-factor).
import { SecondFactorRecovery } from '../../components/SecondFactorRecovery.tsx';

export default function TwoFactorRecoverPage() {
  return <SecondFactorRecovery kind="totp" />;
}
