// A sign-in page in the shared page frame: its translated heading, an optional sentence under it, then
// the page's content in a column of the width a form reads well at.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ParseKeys } from 'i18next';
import type { MouseEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { PageFrame } from '@ente/shared/components/PageFrame.tsx';

import '../strings.ts';

export interface AccountsPageProps {
  /** Translation key (namespace accounts) of the h1. */
  titleKey: ParseKeys<'accounts'>;
  /** The sentence below the heading, translated. */
  intro?: ReactNode;
  /** Clicks anywhere on the page (see isPageBackground of PageFrame). */
  onClick?: MouseEventHandler<HTMLElement>;
  children?: ReactNode;
}

export function AccountsPage({ titleKey, intro, onClick, children }: AccountsPageProps) {
  const { t } = useTranslation('accounts');
  return (
    <PageFrame title={t(titleKey)} onClick={onClick}>
      <Box sx={{ maxWidth: 480 }}>
        {intro !== undefined && (
          <Typography variant="body1" sx={{ mb: 3, color: 'text.secondary', overflowWrap: 'anywhere' }}>
            {intro}
          </Typography>
        )}
        {children}
      </Box>
    </PageFrame>
  );
}
