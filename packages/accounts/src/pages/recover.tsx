// /recover: regaining access with the recovery key after a forgotten password (a placeholder until the accounts issue).
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function RecoverPage() {
  return <AccountsPage titleKey="recover_title" bodyKey="recover_body" />;
}
