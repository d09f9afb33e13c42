// The navigation between the parts of the library (Photos, Albums, Shared with me, Trash, Deduplicate): real
// links (readable as links, openable in a new tab) followed with the client-side router, the current one
// marked `aria-current="page"`. By keyboard: Tab reaches the current link; the arrow keys, Home and End move
// between links; Enter follows one.
import Box from '@mui/material/Box';
import { useRouter } from 'next/router';
import type { KeyboardEvent, MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { photosSections, sectionHref, type PhotosSection } from './sections.ts';

export interface SectionNavProps {
  current: PhotosSection;
  /** Where each section lives; `sectionHref` unless given. */
  hrefFor?: (section: PhotosSection) => string;
}

export function SectionNav({ current, hrefFor = sectionHref }: SectionNavProps) {
  const { t } = useTranslation('photos');
  const router = useRouter();

  const follow = (event: MouseEvent<HTMLAnchorElement>, href: string) => {
    // Let the browser handle a new tab or window.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void router.push(href);
  };

  const moveFocus = (event: KeyboardEvent<HTMLElement>) => {
    const links = Array.from(event.currentTarget.querySelectorAll<HTMLAnchorElement>('a'));
    const index = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (index < 0) return;
    const next = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1 }[event.key];
    const target =
      event.key === 'Home' ? 0 : event.key === 'End' ? links.length - 1 : next === undefined ? undefined : next;
    if (target === undefined) return;
    event.preventDefault();
    links[(target + links.length) % links.length]?.focus();
  };

  return (
    <Box
      component="nav"
      aria-label={t('layout.nav_label')}
      onKeyDown={moveFocus}
      sx={{ px: { xs: 1, sm: 2 }, borderBottom: 1, borderColor: 'divider', overflowX: 'auto' }}
    >
      <Box component="ul" sx={{ display: 'flex', gap: 0.5, m: 0, p: 0, listStyle: 'none' }}>
        {photosSections.map((section) => {
          const href = hrefFor(section);
          const selected = section === current;
          return (
            <li key={section}>
              <Box
                component="a"
                href={href}
                aria-current={selected ? 'page' : undefined}
                // One stop in the Tab order (the current link); the arrows move between the others.
                tabIndex={selected ? 0 : -1}
                onClick={(event: MouseEvent<HTMLAnchorElement>) => follow(event, href)}
                sx={{
                  display: 'block',
                  px: 1.5,
                  py: 1.25,
                  typography: 'body2',
                  fontWeight: 600,
                  whiteSpace: 'nowrap',
                  textDecoration: 'none',
                  color: selected ? 'text.primary' : 'text.secondary',
                  borderBottom: 2,
                  borderColor: selected ? 'primary.main' : 'transparent',
                  '&:hover': { color: 'text.primary' },
                  '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
                }}
              >
                {t(`nav.${section}`)}
              </Box>
            </li>
          );
        })}
      </Box>
    </Box>
  );
}
