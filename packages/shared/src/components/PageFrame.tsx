// The frame of every page (docs/product.md#app-shell): the shared page header, then the page's own
// content in <main> under its one h1. The sign-in pages (packages/accounts) are built in it.
import Box from '@mui/material/Box';
import type { MouseEventHandler, ReactNode } from 'react';

import { PageHeader } from './PageHeader.tsx';

export interface PageFrameProps {
  /** The text of the page's h1, translated. */
  title: string;
  /** Clicks anywhere on the page; see `isPageBackground` for telling the background apart. */
  onClick?: MouseEventHandler<HTMLElement>;
  children?: ReactNode;
}

/** Marks the elements that count as the page background (not text, not controls). */
const pageBackgroundAttribute = 'data-page-background';

export function PageFrame({ title, onClick, children }: PageFrameProps) {
  const background = { [pageBackgroundAttribute]: true };
  return (
    <Box {...background} onClick={onClick} sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <PageHeader />
      <Box
        component="main"
        {...background}
        sx={{ flex: 1, width: '100%', maxWidth: 720, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 4, md: 8 } }}
      >
        {/* Box, not Typography: a page with no other MUI text part (a public album's) does not load it for this. */}
        <Box component="h1" sx={{ typography: 'h2', mt: 0, mb: 2 }}>
          {title}
        </Box>
        {children}
      </Box>
    </Box>
  );
}

/** Whether a click landed on the page background itself rather than on something in it. */
export function isPageBackground(target: EventTarget): boolean {
  return target instanceof HTMLElement && target.hasAttribute(pageBackgroundAttribute);
}
