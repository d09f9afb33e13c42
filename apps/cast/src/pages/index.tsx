import { LandingPlaceholder } from '@ente/shared/components/LandingPlaceholder.tsx';

export default function Page() {
  return <LandingPlaceholder headingKey="title_cast" bodyKey="cast_pairing_coming_soon" requireLogin={false} />;
}
