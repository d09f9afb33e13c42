import { LandingPlaceholder } from '@ente/shared/components/LandingPlaceholder.tsx';

export default function Page() {
  return <LandingPlaceholder headingKey="deduplicate" bodyKey="deduplicate_coming_soon" requireLogin={true} />;
}
