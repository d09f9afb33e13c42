// /passkeys: the passkeys of an account (docs/protocol.md#passkeys), reached from an app's settings with
// a 30-minute management token in `?token=`. The token is moved to this tab's session storage and out of
// the address at once (history, referrers). A person signed in at the accounts app itself gets a token
// through that session; anyone else goes to /login. The page lists the passkeys (name, when added, when
// last used), adds one under a name, renames and deletes one after confirmation. Without a usable token it
// says where to come from.
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import KeyIcon from '@mui/icons-material/Key';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRouter, type NextRouter } from 'next/router';
import { useCallback, useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { isAccountsError } from '@ente/accounts/services/errors.ts';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { log } from '@ente/shared/log.ts';
import { saveAccountsToken, savedAccountsToken } from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import { RenameDialog } from '../../components/RenameDialog.tsx';
import { nameProblem, passkeyProblem, type PasskeyProblem } from '../../services/passkey-errors.ts';
import type { Passkey } from '../../services/passkeys.ts';

const service = () => import('../../services/passkeys.ts');

export default function PasskeysPage() {
  const { t, i18n } = useTranslation('passkeys');
  const router = useRouter();
  const { showDialog } = useDialog();
  const [ready, setReady] = useState(false);
  // undefined: not read yet; null: none.
  const [token, setToken] = useState<string | null>();
  const [passkeys, setPasskeys] = useState<Passkey[]>();
  const [problem, setProblem] = useState<PasskeyProblem>();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [renaming, setRenaming] = useState<Passkey>();
  const nameID = useId();

  useEffect(() => {
    void loadNamespace('passkeys').then(() => setReady(true));
  }, []);

  const load = useCallback(async (using: string) => {
    setProblem(undefined);
    try {
      setPasskeys(await (await service()).listPasskeys(using));
    } catch (e) {
      log.warn('Could not list the passkeys', e);
      setProblem(passkeyProblem(e, 'load_failed'));
    }
  }, []);
  const reload = () => (token ? load(token) : Promise.resolve());

  const started = useRef(false);
  useEffect(() => {
    if (!router.isReady || started.current) return;
    started.current = true;
    void managementToken(router).then((resolved) => {
      if (resolved === undefined) return;
      setToken(resolved);
      if (resolved === null) setProblem('no_token');
      else void load(resolved);
    });
  }, [router, load]);

  const add = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    const invalid = nameProblem(trimmed);
    if (invalid) {
      setNameError(t(invalid));
      return;
    }
    if (!token) return;
    setBusy(true);
    setNameError(undefined);
    try {
      await (await service()).addPasskey(token, trimmed);
      setName('');
      await reload();
    } catch (e) {
      // The person closed the browser's prompt: nothing to say.
      if (!(e instanceof Error && e.name === 'NotAllowedError')) {
        log.warn('Could not add a passkey', e);
        setNameError(t(passkeyProblem(e, 'add_failed')));
      }
    }
    setBusy(false);
  };

  const confirmDelete = (passkey: Passkey) => {
    const last = passkeys?.length === 1;
    showDialog({
      title: t('delete_title'),
      content: `${t('delete_body', { name: passkey.friendlyName })}${last ? ` ${t('delete_last')}` : ''}`,
      proceed: {
        text: t('delete_confirm'),
        variant: 'critical',
        action: async () => {
          if (!token) return;
          try {
            await (await service()).deletePasskey(token, passkey.id);
          } catch (e) {
            log.warn('Could not delete a passkey', e);
            setProblem(passkeyProblem(e, 'failed'));
          }
          await reload();
        },
      },
      close: { text: t('cancel') },
    });
  };

  const rename = async (friendlyName: string) => {
    if (!token || !renaming) return;
    await (await service()).renamePasskey(token, renaming.id, friendlyName);
    setRenaming(undefined);
    await reload();
  };

  if (!ready) return <PageFrame title="">{null}</PageFrame>;
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const usable = token && problem !== 'no_token' && problem !== 'expired';
  // Read when rendering signed in, which the prerender never is.
  const signedInAs = isLoggedIn() ? savedUser()?.email : undefined;
  return (
    <PageFrame title={t('title')}>
      <Box sx={{ maxWidth: 480 }}>
        <Typography sx={{ mb: 3, color: 'text.secondary' }}>{t('intro')}</Typography>
        {signedInAs && (
          <Typography variant="body2" sx={{ mb: 3, overflowWrap: 'anywhere' }}>
            {t('landing_signed_in_as', { ns: 'common', email: signedInAs })}
          </Typography>
        )}
        {problem && (
          <Alert
            severity="error"
            role="alert"
            sx={{ mb: 3 }}
            action={
              usable ? (
                <Button color="inherit" size="small" onClick={() => void reload()}>
                  {t('retry')}
                </Button>
              ) : undefined
            }
          >
            {t(problem)}
          </Alert>
        )}
        {usable && (
          <>
            <Box
              component="form"
              noValidate
              onSubmit={(event) => void add(event)}
              sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
            >
              <TextField
                id={nameID}
                label={t('name_label')}
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  setNameError(undefined);
                }}
                error={nameError !== undefined}
                helperText={nameError}
                disabled={busy}
                fullWidth
                size="small"
              />
              <Button
                type="submit"
                variant="contained"
                startIcon={<AddIcon />}
                loading={busy}
                sx={{ flexShrink: 0, minHeight: 40 }}
              >
                {t('add')}
              </Button>
            </Box>
            <Typography variant="h6" component="h2" sx={{ mt: 4, mb: 1 }}>
              {t('list_label')}
            </Typography>
            {passkeys === undefined ? (
              problem ? null : (
                <CircularProgress aria-label={t('loading')} />
              )
            ) : passkeys.length === 0 ? (
              <Typography sx={{ color: 'text.secondary' }}>{t('empty')}</Typography>
            ) : (
              <List aria-label={t('list_label')}>
                {passkeys.map((passkey) => (
                  <ListItem
                    key={passkey.id}
                    disableGutters
                    secondaryAction={
                      <>
                        <IconButton
                          aria-label={t('rename', { name: passkey.friendlyName })}
                          onClick={() => setRenaming(passkey)}
                        >
                          <EditOutlinedIcon />
                        </IconButton>
                        <IconButton
                          aria-label={t('delete', { name: passkey.friendlyName })}
                          onClick={() => confirmDelete(passkey)}
                          edge="end"
                        >
                          <DeleteOutlinedIcon />
                        </IconButton>
                      </>
                    }
                  >
                    <ListItemIcon>
                      <KeyIcon aria-hidden />
                    </ListItemIcon>
                    <ListItemText
                      primary={passkey.friendlyName}
                      secondary={
                        <>
                          {t('created', { date: dateFormat.format(new Date(passkey.createdAt / 1000)) })}
                          {passkey.lastUsedAt !== undefined && (
                            <>
                              <br />
                              {t('last_used', { date: dateFormat.format(new Date(passkey.lastUsedAt / 1000)) })}
                            </>
                          )}
                        </>
                      }
                      slotProps={{ primary: { sx: { overflowWrap: 'anywhere', pr: 10 } } }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </>
        )}
      </Box>
      <RenameDialog
        key={renaming?.id}
        open={renaming !== undefined}
        initial={renaming?.friendlyName ?? ''}
        onClose={() => setRenaming(undefined)}
        onRename={rename}
      />
    </PageFrame>
  );
}

/**
 * The management token: from the address (then kept for the tab and taken out of the address), kept
 * from before, or asked for through this app's own session. null: none to be had; undefined: the page is
 * on its way to /login or /credentials.
 */
async function managementToken(router: NextRouter): Promise<string | null | undefined> {
  const fromQuery = typeof router.query.token === 'string' ? router.query.token : undefined;
  if (fromQuery) {
    saveAccountsToken(fromQuery);
    await router.replace('/passkeys', undefined, { shallow: true });
    return fromQuery;
  }
  const kept = savedAccountsToken();
  if (kept) return kept;
  if (!isLoggedIn()) {
    await router.replace('/login');
    return undefined;
  }
  try {
    const { passkeyManagementToken } = await import('@ente/accounts/services/account-passkeys.ts');
    const { accountsToken } = await passkeyManagementToken();
    saveAccountsToken(accountsToken);
    return accountsToken;
  } catch (e) {
    if (isAccountsError(e, 'sessionExpired')) {
      await router.replace('/credentials');
      return undefined;
    }
    log.warn('Could not get a passkey management token', e);
    return null;
  }
}
