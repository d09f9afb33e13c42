import { LandingPlaceholder } from '@ente/shared/components/LandingPlaceholder.tsx';

export default function Page() {
  return <LandingPlaceholder headingKey="title_auth" bodyKey="codes_coming_soon" requireLogin={true} />;
}
