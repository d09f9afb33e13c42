// /two-factor/recover: removing two-factor authentication with the recovery key after losing the device.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../../components/AccountsPage.tsx';

export default function TwoFactorRecoverPage() {
  return <AccountsPage titleKey="two_factor_recover_title" bodyKey="two_factor_recover_body" />;
}
