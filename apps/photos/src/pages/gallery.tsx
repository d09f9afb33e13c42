import { LandingPlaceholder } from '@ente/shared/components/LandingPlaceholder.tsx';

export default function Page() {
  return <LandingPlaceholder headingKey="title_photos" bodyKey="gallery_coming_soon" requireLogin={true} />;
}
