// /signup: creating an account with an e-mail address and a password (a placeholder until the accounts issue).
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function SignupPage() {
  return <AccountsPage titleKey="signup_title" bodyKey="signup_body" />;
}
