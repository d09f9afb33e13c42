// A sign-in page in the shared page frame. Until the real flows arrive a page is its heading, a
// sentence saying what it is for, and a note that it is not ready yet.
import Typography from '@mui/material/Typography';
import type { ParseKeys } from 'i18next';
import type { MouseEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { PageFrame } from '@ente/shared/components/PageFrame.tsx';

export interface AccountsPageProps {
  /** Translation key (namespace accounts) of the h1. */
  titleKey: ParseKeys<'accounts'>;
  /** Translation key (namespace accounts) of the sentence below it. */
  bodyKey: ParseKeys<'accounts'>;
  /** Clicks anywhere on the page (see isPageBackground of PageFrame). */
  onClick?: MouseEventHandler<HTMLElement>;
  children?: ReactNode;
}

export function AccountsPage({ titleKey, bodyKey, onClick, children }: AccountsPageProps) {
  const { t } = useTranslation('accounts');
  return (
    <PageFrame title={t(titleKey)} onClick={onClick}>
      <Typography variant="body1" sx={{ mb: 1 }}>
        {t(bodyKey)}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('placeholder_notice')}
      </Typography>
      {children}
    </PageFrame>
  );
}
