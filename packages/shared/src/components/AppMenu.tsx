// The app menu button of the page header. The menu itself (AppMenuList.tsx) is loaded when the browser
// is first idle, or when the button is pressed before that, to keep it out of every page's first load.
import MoreVertIcon from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import { lazy, Suspense, useEffect, useId, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { whenIdle } from '../app/when-idle.ts';

export function AppMenu() {
  const { t } = useTranslation('common');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first press on, so that closing can animate and focus can return to the button.
  const [mounted, setMounted] = useState(false);
  const buttonId = useId();
  const menuId = useId();
  const open = anchor !== null;

  useEffect(() => whenIdle(() => void loadMenuList()), []);

  return (
    <>
      <IconButton
        id={buttonId}
        aria-label={t('menu')}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open || undefined}
        onClick={(event: MouseEvent<HTMLElement>) => {
          setAnchor(event.currentTarget);
          setMounted(true);
        }}
      >
        <MoreVertIcon />
      </IconButton>
      {mounted && (
        <Suspense fallback={null}>
          <AppMenuList anchor={anchor} onClose={() => setAnchor(null)} buttonId={buttonId} menuId={menuId} />
        </Suspense>
      )}
    </>
  );
}

const loadMenuList = () => import('./AppMenuList.tsx');
const AppMenuList = lazy(() => loadMenuList().then((module) => ({ default: module.AppMenuList })));
