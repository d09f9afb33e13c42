// /passkeys/recover: signing in without the passkey, with the recovery key (docs/protocol.md#passkeys),
// reached from the accounts app's check. The passkeys stay.
import { SecondFactorRecovery } from '../../components/SecondFactorRecovery.tsx';

export default function PasskeyRecoverPage() {
  return <SecondFactorRecovery kind="passkey" />;
}
