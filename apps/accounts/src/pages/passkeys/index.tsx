// /passkeys: the passkeys of an account (docs/protocol.md#passkeys), reached from an app's settings with
// a 30-minute management token in the fragment, `#token=` (Ente's own apps send `?token=`, also read). The
// token is kept in memory only and taken out of the address at once, so that the address the browser keeps
// (history entry, session restore, disk cache, referrers) does not hold it; a reload therefore forgets it. A
// person signed in at the accounts app itself gets a token through that session; anyone else goes to /login. The page lists the passkeys (name, when added, when
// last used), adds one under a name, renames and deletes one after confirmation. Without a usable token it
// says where to come from.
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import KeyIcon from '@mui/icons-material/Key';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useRouter, type NextRouter } from 'next/router';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LazyAlert } from '@ente/shared/components/LazyAlert.tsx';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { log } from '@ente/shared/log.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import type { PasskeyProblem } from '../../services/passkey-errors.ts';
import type { Passkey } from '../../services/passkeys.ts';

const service = () => import('../../services/passkeys.ts');
// What a failure means and whether a name will do: with the protocol's schemas, loaded at first need.
const problems = () => import('../../services/passkey-errors.ts');
// The dialog code loads when someone adds or renames a passkey.
const NameDialog = lazy(() => import('../../components/NameDialog.tsx'));

export default function PasskeysPage() {
  const { t, i18n } = useTranslation('passkeys');
  const router = useRouter();
  const { showDialog } = useDialog();
  const [ready, setReady] = useState(false);
  // undefined: not read yet; null: none.
  const [token, setToken] = useState<string | null>();
  const [passkeys, setPasskeys] = useState<Passkey[]>();
  const [problem, setProblem] = useState<PasskeyProblem>();
  // The passkey being renamed, or 'new' while one is added.
  const [naming, setNaming] = useState<Passkey | 'new'>();

  useEffect(() => {
    void loadNamespace('passkeys').then(() => setReady(true));
  }, []);

  const load = useCallback(async (using: string) => {
    setProblem(undefined);
    try {
      setPasskeys(await (await service()).listPasskeys(using));
    } catch (e) {
      log.warn('Could not list the passkeys', e);
      setProblem((await problems()).passkeyProblem(e, 'load_failed'));
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

  const add = async (friendlyName: string) => {
    if (!token) return;
    await (await service()).addPasskey(token, friendlyName);
    setNaming(undefined);
    await reload();
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
            setProblem((await problems()).passkeyProblem(e, 'failed'));
          }
          await reload();
        },
      },
      close: { text: t('cancel') },
    });
  };

  const rename = async (passkey: Passkey, friendlyName: string) => {
    if (!token) return;
    await (await service()).renamePasskey(token, passkey.id, friendlyName);
    setNaming(undefined);
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
          <LazyAlert
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
          </LazyAlert>
        )}
        {usable && (
          <>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setNaming('new')}>
              {t('add')}
            </Button>
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
              // A plain list: MUI's List parts would add their code to the first load for this alone.
              <Box component="ul" aria-label={t('list_label')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
                {passkeys.map((passkey) => (
                  <Box component="li" key={passkey.id} sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1 }}>
                    <KeyIcon aria-hidden sx={{ color: 'text.secondary' }} />
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Typography sx={{ overflowWrap: 'anywhere' }}>{passkey.friendlyName}</Typography>
                      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                        {t('created', { date: dateFormat.format(new Date(passkey.createdAt / 1000)) })}
                        {passkey.lastUsedAt !== undefined && (
                          <>
                            <br />
                            {t('last_used', { date: dateFormat.format(new Date(passkey.lastUsedAt / 1000)) })}
                          </>
                        )}
                      </Typography>
                    </Box>
                    <IconButton
                      aria-label={t('rename', { name: passkey.friendlyName })}
                      onClick={() => setNaming(passkey)}
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
                  </Box>
                ))}
              </Box>
            )}
          </>
        )}
      </Box>
      {naming && (
        <Suspense fallback={null}>
          {naming === 'new' ? (
            <NameDialog
              key="new"
              title={t('add_title')}
              submitLabel={t('add')}
              initial=""
              failure="add_failed"
              onClose={() => setNaming(undefined)}
              onSubmit={add}
            />
          ) : (
            <NameDialog
              key={naming.id}
              title={t('rename_title')}
              submitLabel={t('rename_submit')}
              initial={naming.friendlyName}
              failure="failed"
              onClose={() => setNaming(undefined)}
              onSubmit={(friendlyName) => rename(naming, friendlyName)}
            />
          )}
        </Suspense>
      )}
    </PageFrame>
  );
}

/**
 * The management token: from the address (then taken out of it), or asked for through this app's own
 * session. null: none to be had; undefined: the page is on its way to /login or /credentials.
 */
async function managementToken(router: NextRouter): Promise<string | null | undefined> {
  const fromAddress = tokenInAddress(router);
  if (fromAddress !== undefined) {
    // Through the router, which also rewrites its own copy of the address in the history entry's state.
    await router.replace('/passkeys', undefined, { shallow: true });
    if (fromAddress) return fromAddress;
  }
  if (!isLoggedIn()) {
    await router.replace('/login');
    return undefined;
  }
  try {
    const { passkeyManagementToken } = await import('@ente/accounts/services/account-passkeys.ts');
    const { accountsToken } = await passkeyManagementToken();
    return accountsToken;
  } catch (e) {
    const { isAccountsError } = await import('@ente/accounts/services/errors.ts');
    if (isAccountsError(e, 'sessionExpired')) {
      await router.replace('/credentials');
      return undefined;
    }
    log.warn('Could not get a passkey management token', e);
    return null;
  }
}

/**
 * The token the address carries: `#token=` as our apps' settings send it, or `?token=` as Ente's web and
 * mobile apps do. undefined: the address has neither (an empty value is '', to be cleared all the same).
 */
function tokenInAddress(router: NextRouter): string | undefined {
  const fromFragment = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromFragment !== null) return fromFragment;
  const fromQuery = router.query.token;
  if (fromQuery !== undefined) return typeof fromQuery === 'string' ? fromQuery : '';
  return undefined;
}
