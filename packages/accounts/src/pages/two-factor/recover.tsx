// /two-factor/recover: removing two-factor authentication with the recovery key after losing the device (a placeholder until the accounts issue).
import { AccountsPage } from '../../components/AccountsPage.tsx';

export default function TwoFactorRecoverPage() {
  return <AccountsPage titleKey="two_factor_recover_title" bodyKey="two_factor_recover_body" />;
}
