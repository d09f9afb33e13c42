// /credentials: unlocking the user's data on this device with their password (a placeholder until the accounts issue).
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function CredentialsPage() {
  return <AccountsPage titleKey="credentials_title" bodyKey="credentials_body" />;
}
