// The frame of every sign-in page: the shared page header, then the page's own content in <main>
// under an h1. Until the real flows arrive (the accounts issue) a page is its heading, a sentence
// saying what it is for, and a note that it is not ready yet.
import type { MouseEventHandler, ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PageHeader } from '@ente/shared/components/PageHeader.tsx';
import { useTranslation } from 'react-i18next';
import type { AccountsKey } from '../i18n-keys.ts';

export interface AccountsPageProps {
  /** Translation key (namespace accounts) of the h1. */
  titleKey: AccountsKey;
  /** Translation key (namespace accounts) of the sentence below it. */
  bodyKey: AccountsKey;
  /** Clicks anywhere on the page; see `isPageBackground` for telling the background apart. */
  onClick?: MouseEventHandler<HTMLElement>;
  children?: ReactNode;
}

/** Marks the elements that count as the page background (not text, not controls). */
export const pageBackgroundAttribute = 'data-page-background';

export function AccountsPage({ titleKey, bodyKey, onClick, children }: AccountsPageProps) {
  const { t } = useTranslation('accounts');
  const background = { [pageBackgroundAttribute]: true };
  return (
    <Box {...background} onClick={onClick} sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <PageHeader />
      <Box
        component="main"
        {...background}
        sx={{ flex: 1, width: '100%', maxWidth: 720, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 4, md: 8 } }}
      >
        <Typography variant="h2" component="h1" sx={{ mb: 2 }}>
          {t(titleKey)}
        </Typography>
        <Typography variant="body1" sx={{ mb: 1 }}>
          {t(bodyKey)}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('placeholder_notice')}
        </Typography>
        {children}
      </Box>
    </Box>
  );
}

/** Whether a click landed on the page background itself rather than on something in it. */
export function isPageBackground(target: EventTarget): boolean {
  return target instanceof HTMLElement && target.hasAttribute(pageBackgroundAttribute);
}
