// /change-email: moving the account to a new e-mail address.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function ChangeEmailPage() {
  return <AccountsPage titleKey="change_email_title" bodyKey="change_email_body" />;
}
