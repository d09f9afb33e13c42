// /two-factor/verify: entering the code of the authenticator app as a second step of signing in.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../../components/AccountsPage.tsx';

export default function TwoFactorVerifyPage() {
  return <AccountsPage titleKey="two_factor_verify_title" bodyKey="two_factor_verify_body" />;
}
