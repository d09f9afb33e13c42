// /change-password: choosing a new password.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function ChangePasswordPage() {
  return <AccountsPage titleKey="change_password_title" bodyKey="change_password_body" />;
}
