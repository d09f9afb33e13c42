// /verify: entering the one-time code sent to the user's e-mail address.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function VerifyPage() {
  return <AccountsPage titleKey="verify_title" bodyKey="verify_body" />;
}
