import { LandingPlaceholder } from '@ente/shared/components/LandingPlaceholder.tsx';

export default function Page() {
  return <LandingPlaceholder headingKey="shared_albums" bodyKey="shared_albums_coming_soon" requireLogin={false} />;
}
