import { LandingPlaceholder } from '@ente/shared/components/LandingPlaceholder.tsx';

export default function Page() {
  return <LandingPlaceholder headingKey="passkeys" bodyKey="passkeys_coming_soon" requireLogin={true} />;
}
