// The app menu button of the page header. The menu itself (AppMenuList.tsx) is loaded when the browser
// is idle after the user's first interaction (app/when-idle.ts), or when the button is pressed before
// that, to keep it out of every page's first load.
// The account settings (account-ui.tsx) load only when their menu item is chosen.
import { lazy, Suspense, useEffect, useId, useState, type ComponentType, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useAccountUI, type SettingsProps } from '../app/account-ui.tsx';
import { whenIdle } from '../app/when-idle.ts';
import { useDialog } from '../dialog/DialogProvider.tsx';
import { MoreGlyph } from './Glyph.tsx';
import { PlainButton } from './PlainButton.tsx';

export function AppMenu() {
  const { t } = useTranslation('common');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first press on, so that closing can animate and focus can return to the button.
  const [mounted, setMounted] = useState(false);
  const buttonId = useId();
  const menuId = useId();
  const open = anchor !== null;
  const accountUI = useAccountUI();
  const { onGenericError } = useDialog();
  const [Settings, setSettings] = useState<ComponentType<SettingsProps>>();
  const [settingsOpen, setSettingsOpen] = useState(false);

  useEffect(() => whenIdle(() => void loadMenuList()), []);

  const openSettings = accountUI
    ? () => {
        setSettingsOpen(true);
        if (Settings) return;
        accountUI.loadSettings().then(
          (component) => setSettings(() => component),
          (e: unknown) => {
            setSettingsOpen(false);
            onGenericError(e, { message: 'Could not load the settings' });
          },
        );
      }
    : undefined;

  return (
    <>
      {/* A plain button: on a page with no other MUI button (a public album) MUI's would cost it ButtonBase. */}
      <PlainButton
        variant="icon"
        color="inherit"
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
        <MoreGlyph />
      </PlainButton>
      {mounted && (
        <Suspense fallback={null}>
          <AppMenuList
            anchor={anchor}
            onClose={() => setAnchor(null)}
            buttonId={buttonId}
            menuId={menuId}
            onOpenSettings={openSettings}
          />
        </Suspense>
      )}
      {Settings && <Settings open={settingsOpen} onClose={() => setSettingsOpen(false)} />}
    </>
  );
}

const loadMenuList = () => import('./AppMenuList.tsx');
const AppMenuList = lazy(() => loadMenuList().then((module) => ({ default: module.AppMenuList })));
