// /generate: choosing the password that encrypts the user's data.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function GeneratePage() {
  return <AccountsPage titleKey="generate_title" bodyKey="generate_body" />;
}
