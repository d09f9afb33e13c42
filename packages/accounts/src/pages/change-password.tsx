// /change-password: choosing a new password (a placeholder until the accounts issue).
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function ChangePasswordPage() {
  return <AccountsPage titleKey="change_password_title" bodyKey="change_password_body" />;
}
