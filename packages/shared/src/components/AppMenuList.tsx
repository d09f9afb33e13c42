// The list of the app menu (see AppMenu.tsx): theme (light/dark), language (the nine locales, each under
// its own name) and, when signed in, the settings (if the app has them; see app/account-ui.tsx) and
// logout, after which the app loads '/' afresh
// (docs/product.md#app-shell). A MUI Menu: arrow keys move between items, Enter chooses, Escape closes
// and gives focus back to the button. Loaded on demand: it is not part of a page's first load.
import CheckIcon from '@mui/icons-material/Check';
import LogoutIcon from '@mui/icons-material/Logout';
import SettingsIcon from '@mui/icons-material/Settings';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';

import { useThemeMode } from '../app/AppThemeProvider.tsx';
import { useLoggedIn } from '../app/use-logged-in.ts';
import { useDialog } from '../dialog/DialogProvider.tsx';
import { changeLocale } from '../i18n/i18n.ts';
import { defaultLocale, isSupportedLocale, localeNativeNames, supportedLocales, type Locale } from '../i18n/locales.ts';
import { logoutAndReload } from '../logout-and-reload.ts';
import { themeModes, type ThemeMode } from '../theme.ts';

export interface AppMenuListProps {
  /** The menu button; the menu is open while it is set. */
  anchor: HTMLElement | null;
  onClose: () => void;
  buttonId: string;
  menuId: string;
  /** Opens the account settings; the item shows while signed in when this is given. */
  onOpenSettings?: () => void;
}

export function AppMenuList({ anchor, onClose: closeMenu, buttonId, menuId, onOpenSettings }: AppMenuListProps) {
  const { t, i18n } = useTranslation('common');
  const { mode, setMode } = useThemeMode();
  const { onGenericError } = useDialog();
  const loggedIn = useLoggedIn();
  const locale: Locale = isSupportedLocale(i18n.language) ? i18n.language : defaultLocale;

  const chooseTheme = (choice: ThemeMode) => {
    closeMenu();
    setMode(choice);
  };

  const chooseLocale = async (choice: Locale) => {
    closeMenu();
    try {
      await changeLocale(choice);
    } catch (e) {
      onGenericError(e, { message: `Could not switch to ${choice}` });
    }
  };

  const handleLogout = async () => {
    closeMenu();
    await logoutAndReload(onGenericError);
  };

  return (
    <Menu
      id={menuId}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={closeMenu}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ list: { 'aria-labelledby': buttonId, dense: true } }}
    >
      <ListSubheader role="presentation">{t('theme')}</ListSubheader>
      {themeModes.map((choice) => (
        <MenuItem
          key={choice}
          role="menuitemradio"
          aria-checked={mode === choice}
          selected={mode === choice}
          onClick={() => chooseTheme(choice)}
        >
          <SelectedMark selected={mode === choice} />
          <ListItemText>{t(`theme_${choice}`)}</ListItemText>
        </MenuItem>
      ))}
      <Divider />
      <ListSubheader role="presentation">{t('language')}</ListSubheader>
      {supportedLocales.map((choice) => (
        <MenuItem
          key={choice}
          lang={choice}
          role="menuitemradio"
          aria-checked={locale === choice}
          onClick={() => void chooseLocale(choice)}
        >
          <SelectedMark selected={locale === choice} />
          <ListItemText>{localeNativeNames[choice]}</ListItemText>
        </MenuItem>
      ))}
      {loggedIn && <Divider />}
      {loggedIn && onOpenSettings && (
        <MenuItem
          onClick={() => {
            closeMenu();
            onOpenSettings();
          }}
        >
          <ListItemIcon>
            <SettingsIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('settings')}</ListItemText>
        </MenuItem>
      )}
      {loggedIn && (
        <MenuItem onClick={() => void handleLogout()}>
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('logout')}</ListItemText>
        </MenuItem>
      )}
    </Menu>
  );
}

function SelectedMark({ selected }: { selected: boolean }) {
  return <ListItemIcon aria-hidden>{selected && <CheckIcon fontSize="small" />}</ListItemIcon>;
}
