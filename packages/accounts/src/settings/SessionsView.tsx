// The active sessions of the account, inside the settings (docs/protocol.md#sessions-and-logout):
// each with its device, IP address and last use, this browser's marked as such. Any other one can be
// signed out after a confirmation; this browser's own session ends with logout instead.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';

import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { log } from '@ente/shared/log.ts';

import { getActiveSessions, revokeSession, type ActiveSession } from '../services/account-sessions.ts';
import { errorMessageKey, isAccountsError } from '../services/errors.ts';
import { ProblemWithRetry } from './ProblemWithRetry.tsx';
import { useRemoteValue } from './use-remote-value.ts';

import '../strings.ts';

export function SessionsView() {
  const { t, i18n } = useTranslation('accounts');
  const { showDialog } = useDialog();
  const {
    value: sessions,
    setValue: setSessions,
    problem,
    setProblem,
    retry,
  } = useRemoteValue(getActiveSessions, 'the sessions');

  const confirmRevoke = (session: ActiveSession) =>
    showDialog({
      title: t('sessions_revoke_title'),
      content: t('sessions_revoke_body', { device: session.device, ip: session.ip }),
      proceed: {
        text: t('sessions_revoke_confirm'),
        variant: 'critical',
        action: async () => {
          try {
            await revokeSession(session.token);
          } catch (e) {
            if (isAccountsError(e, 'unknown')) log.error('Could not revoke a session', e);
            setProblem(errorMessageKey(e));
            return;
          }
          setSessions((current) => current?.filter((other) => other.token !== session.token));
        },
      },
      close: { text: t('cancel', { ns: 'common' }) },
    });

  const lastUsed = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <Box sx={{ pb: 2 }}>
      {problem && <ProblemWithRetry problem={problem} retry={retry} sx={{ px: 2, pt: 2 }} />}
      {!sessions && !problem && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('sessions_loading')} />
        </Box>
      )}
      {sessions && (
        <List aria-label={t('sessions_title')}>
          {sessions.map((session) => (
            <ListItem
              key={session.token}
              divider
              secondaryAction={
                session.current ? (
                  <Chip size="small" color="primary" variant="outlined" label={t('sessions_this_device')} />
                ) : (
                  <Button
                    size="small"
                    color="error"
                    aria-label={t('sessions_revoke_label', { device: session.device })}
                    onClick={() => confirmRevoke(session)}
                  >
                    {t('sessions_revoke')}
                  </Button>
                )
              }
            >
              <ListItemText
                primary={session.device}
                secondary={t('sessions_details', {
                  ip: session.ip,
                  lastUsed: lastUsed.format(new Date(session.lastUsedAt)),
                })}
                sx={{ pr: 12 }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
