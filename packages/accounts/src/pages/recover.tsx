// /recover: regaining access with the recovery key after a forgotten password.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function RecoverPage() {
  return <AccountsPage titleKey="recover_title" bodyKey="recover_body" />;
}
