// The account settings: a drawer from the right, opened from the app menu of every app while signed
// in (docs/product.md#app-shell), and loaded only then. It shows the e-mail address and leads to
// changing it and the password; turns two-factor on (/two-factor/setup) and off (after a
// confirmation) and the e-mail code at sign-in on and off; shows the recovery key again once the
// password has been typed (RecoveryKeyView); lists the active sessions to revoke one (SessionsView);
// and offers language, theme and logout. The state of the switches comes from `GET /users/details/v2`
// (docs/protocol.md#account). The recovery key and the sessions open as views inside the drawer, with
// a back button, so that one Escape closes the whole drawer.
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import LogoutIcon from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import FormControl from '@mui/material/FormControl';
import IconButton from '@mui/material/IconButton';
import InputLabel from '@mui/material/InputLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Switch from '@mui/material/Switch';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useRouter } from 'next/router';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { SettingsProps } from '@ente/shared/app/account-ui.tsx';
import { useThemeMode } from '@ente/shared/app/AppThemeProvider.tsx';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { changeLocale, currentLocale } from '@ente/shared/i18n/i18n.ts';
import { isSupportedLocale, localeNativeNames, supportedLocales } from '@ente/shared/i18n/locales.ts';
import { log } from '@ente/shared/log.ts';
import { logoutAndReload } from '@ente/shared/logout-and-reload.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { themeModes } from '@ente/shared/theme.ts';

import { getAccountDetails, setEmailMFA } from '../services/account-details.ts';
import { disableTwoFactor } from '../services/account-two-factor.ts';
import { errorMessageKey, isAccountsError } from '../services/errors.ts';
import { ProblemWithRetry } from './ProblemWithRetry.tsx';
import { RecoveryKeyView } from './RecoveryKeyView.tsx';
import { SessionsView } from './SessionsView.tsx';
import { useRemoteValue } from './use-remote-value.ts';

import '../strings.ts';

type View = 'main' | 'recoveryKey' | 'sessions';

export function SettingsDrawer({ open, onClose }: SettingsProps) {
  const { t } = useTranslation('accounts');
  const [view, setView] = useState<View>('main');

  const titles: Record<View, string> = {
    main: t('settings', { ns: 'common' }),
    recoveryKey: t('settings_recovery_key'),
    sessions: t('sessions_title'),
  };

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      // Every opening starts at the main view.
      slotProps={{
        transition: { onExited: () => setView('main') },
        // The dialog is "Settings" whichever view it shows; the heading names the view.
        paper: {
          role: 'dialog',
          'aria-modal': true,
          'aria-label': t('settings', { ns: 'common' }),
          sx: { width: { xs: '100%', sm: 400 } },
        },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1.5 }}>
        {view !== 'main' && (
          <IconButton aria-label={t('settings_back')} onClick={() => setView('main')}>
            <ArrowBackIcon />
          </IconButton>
        )}
        <Typography variant="h5" component="h2" sx={{ flex: 1 }}>
          {titles[view]}
        </Typography>
        <IconButton aria-label={t('close', { ns: 'common' })} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <Box sx={{ overflowY: 'auto', flex: 1 }}>
        {view === 'main' && <MainView open={open} onClose={onClose} onShow={setView} />}
        {view === 'recoveryKey' && <RecoveryKeyView />}
        {view === 'sessions' && <SessionsView />}
      </Box>
    </Drawer>
  );
}

interface MainViewProps {
  open: boolean;
  onClose: () => void;
  onShow: (view: View) => void;
}

function MainView({ open, onClose, onShow }: MainViewProps) {
  const { t } = useTranslation('accounts');
  const router = useRouter();
  const dialog = useDialog();
  const {
    value: details,
    setValue: setDetails,
    problem,
    setProblem,
    retry,
  } = useRemoteValue(getAccountDetails, 'the account details', open);
  const [switching, setSwitching] = useState(false);

  const go = (route: string) => {
    onClose();
    void router.push(route);
  };

  const toggleTwoFactor = () => {
    if (!details?.isTwoFactorEnabled) {
      go('/two-factor/setup');
      return;
    }
    dialog.showDialog({
      title: t('settings_two_factor_disable_title'),
      content: t('settings_two_factor_disable_body'),
      proceed: {
        text: t('settings_two_factor_disable_confirm'),
        variant: 'critical',
        action: async () => {
          try {
            await disableTwoFactor();
          } catch (e) {
            if (isAccountsError(e, 'unknown')) log.error('Could not turn two-factor authentication off', e);
            setProblem(errorMessageKey(e));
            return;
          }
          setDetails((current) => current && { ...current, isTwoFactorEnabled: false });
        },
      },
      close: { text: t('cancel', { ns: 'common' }) },
    });
  };

  const toggleEmailMFA = async () => {
    if (!details) return;
    const isEnabled = !details.isEmailMFAEnabled;
    setSwitching(true);
    setProblem(undefined);
    try {
      await setEmailMFA(isEnabled);
      setDetails({ ...details, isEmailMFAEnabled: isEnabled });
    } catch (e) {
      if (isAccountsError(e, 'unknown')) log.error('Could not switch the e-mail code at sign-in', e);
      setProblem(errorMessageKey(e));
    }
    setSwitching(false);
  };

  // The accounts app's passkey page, in a new tab opened at the click (a tab opened after the requests
  // would meet the pop-up blocker), without a way back to this page (no opener).
  const openPasskeys = () => {
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    setProblem(undefined);
    import('../services/account-passkeys.ts')
      .then(({ passkeysPageURL }) => passkeysPageURL())
      .then((url) => {
        if (tab) tab.location.href = url;
        else window.location.assign(url);
      })
      .catch((e: unknown) => {
        tab?.close();
        if (isAccountsError(e, 'unknown')) log.error('Could not open the passkeys page', e);
        setProblem(errorMessageKey(e));
      });
  };

  const email = details?.email ?? savedUser()?.email ?? '';
  // Turning the e-mail code off needs an SRP verifier (docs/protocol.md#account).
  const emailMFALocked = !details || switching || (details.isEmailMFAEnabled && !details.canDisableEmailMFA);

  return (
    <>
      <List subheader={<ListSubheader disableSticky>{t('settings_account')}</ListSubheader>}>
        <ListItem>
          <ListItemText
            primary={t('settings_email')}
            secondary={email}
            slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
          />
        </ListItem>
        <NavigationItem label={t('settings_change_email')} onClick={() => go('/change-email')} />
        <NavigationItem label={t('settings_change_password')} onClick={() => go('/change-password')} />
        <NavigationItem label={t('settings_recovery_key')} onClick={() => onShow('recoveryKey')} />
      </List>
      <Divider />
      <List subheader={<ListSubheader disableSticky>{t('settings_security')}</ListSubheader>}>
        <SwitchItem
          label={t('settings_two_factor')}
          description={t('settings_two_factor_description')}
          checked={details?.isTwoFactorEnabled ?? false}
          disabled={!details}
          onChange={toggleTwoFactor}
        />
        <SwitchItem
          label={t('settings_email_mfa')}
          description={t('settings_email_mfa_description')}
          checked={details?.isEmailMFAEnabled ?? false}
          disabled={emailMFALocked}
          onChange={() => void toggleEmailMFA()}
        />
        <NavigationItem label={t('settings_passkeys')} onClick={openPasskeys} />
        <NavigationItem label={t('sessions_title')} onClick={() => onShow('sessions')} />
      </List>
      {problem && <ProblemWithRetry problem={problem} retry={retry} sx={{ px: 2, pb: 2 }} />}
      <Divider />
      <Preferences />
      <Divider />
      <Box sx={{ p: 2 }}>
        <Button
          variant="outlined"
          color="error"
          fullWidth
          startIcon={<LogoutIcon />}
          onClick={() => {
            onClose();
            void logoutAndReload(dialog.onGenericError);
          }}
        >
          {t('logout', { ns: 'common' })}
        </Button>
      </Box>
    </>
  );
}

function NavigationItem({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <ListItemButton onClick={onClick}>
      <ListItemText primary={label} />
      <ChevronRightIcon aria-hidden sx={{ color: 'text.secondary' }} />
    </ListItemButton>
  );
}

interface SwitchItemProps {
  label: string;
  description: ReactNode;
  checked: boolean;
  disabled: boolean;
  onChange: () => void;
}

function SwitchItem({ label, description, checked, disabled, onChange }: SwitchItemProps) {
  const labelId = useId();
  const descriptionId = useId();
  return (
    <ListItem
      secondaryAction={
        <Switch
          edge="end"
          checked={checked}
          disabled={disabled}
          onChange={onChange}
          slotProps={{ input: { role: 'switch', 'aria-labelledby': labelId, 'aria-describedby': descriptionId } }}
        />
      }
    >
      <ListItemText
        primary={label}
        secondary={description}
        slotProps={{ primary: { id: labelId }, secondary: { id: descriptionId } }}
        sx={{ pr: 4 }}
      />
    </ListItem>
  );
}

/** Language and theme: the same choices as the app menu, as lasting settings. */
function Preferences() {
  const { t, i18n } = useTranslation('accounts');
  const { mode, setMode } = useThemeMode();
  const { onGenericError } = useDialog();
  const languageLabelId = useId();
  const themeLabelId = useId();
  const locale = isSupportedLocale(i18n.language) ? i18n.language : currentLocale();

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <FormControl fullWidth size="small">
        <InputLabel id={languageLabelId}>{t('language', { ns: 'common' })}</InputLabel>
        <Select
          labelId={languageLabelId}
          label={t('language', { ns: 'common' })}
          value={locale}
          onChange={(event) => {
            const choice = event.target.value;
            if (!isSupportedLocale(choice)) return;
            changeLocale(choice).catch((e: unknown) => onGenericError(e, { message: `Could not switch to ${choice}` }));
          }}
        >
          {supportedLocales.map((choice) => (
            <MenuItem key={choice} value={choice} lang={choice}>
              {localeNativeNames[choice]}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <Box>
        <Typography id={themeLabelId} variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {t('theme', { ns: 'common' })}
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={mode}
          aria-labelledby={themeLabelId}
          onChange={(_, choice: unknown) => {
            const chosen = themeModes.find((candidate) => candidate === choice);
            if (chosen) setMode(chosen);
          }}
        >
          {themeModes.map((choice) => (
            <ToggleButton key={choice} value={choice}>
              {t(`theme_${choice}`, { ns: 'common' })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
    </Box>
  );
}
