// /generate: choosing the password that encrypts the user's data (a placeholder until the accounts issue).
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function GeneratePage() {
  return <AccountsPage titleKey="generate_title" bodyKey="generate_body" />;
}
