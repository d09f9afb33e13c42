// /credentials: unlocking the user's data on this device with their password.
// A placeholder until the sign-in flows are built.
import { AccountsPage } from '../components/AccountsPage.tsx';

export default function CredentialsPage() {
  return <AccountsPage titleKey="credentials_title" bodyKey="credentials_body" />;
}
