// /signup: creating an account with an e-mail address and a password.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function SignupPage() {
  return <AccountsPage titleKey="signup_title" bodyKey="signup_body" />;
}
