// /two-factor/setup: turning on two-factor authentication.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../../components/AccountsPage.tsx';

export default function TwoFactorSetupPage() {
  return <AccountsPage titleKey="two_factor_setup_title" bodyKey="two_factor_setup_body" />;
}
