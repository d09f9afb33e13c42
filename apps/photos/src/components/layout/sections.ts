// The parts of the photos app the navigation leads to, and where each lives: the library's views are one
// page (/gallery, the view in the query, so that switching keeps the loaded library), the duplicates a page
// of their own.

export const photosSections = ['photos', 'albums', 'shared', 'trash', 'deduplicate'] as const;

export type PhotosSection = (typeof photosSections)[number];

/** The URL of a section (the navigation's links). */
export function sectionHref(section: PhotosSection): string {
  if (section === 'photos') return '/gallery';
  if (section === 'deduplicate') return '/deduplicate';
  return `/gallery?view=${section}`;
}

/** The section a /gallery `view` query names; the photos for anything else. */
export function sectionOfView(view: unknown): PhotosSection {
  return view === 'albums' || view === 'shared' || view === 'trash' ? view : 'photos';
}
