// The people part of the share dialog: the accounts the album is shared with, each with its role (changed in
// place: the server takes a second share of the same address as the new role) and a remove button that asks
// first; then the form that shares with one more address. What is wrong with an address is said under the
// field; a failed request, in the section's alert.
import PersonRemoveIcon from '@mui/icons-material/PersonRemoveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import type { Album, AlbumMember } from '../../library/types.ts';
import { InlineConfirm } from './InlineConfirm.tsx';
import {
  addressProblem,
  normalizedAddress,
  requestFailure,
  shareFailure,
  type AddressProblem,
  type RequestProblem,
} from './share-errors.ts';
import { CheckedField, InlineForm, ShareSection, useCheckedValue } from './share-parts.tsx';
import { shareRoles, type ShareActions, type ShareRole } from './share-types.ts';

export interface SharePeopleProps {
  album: Album;
  actions: Pick<ShareActions, 'share' | 'unshare'>;
}

/** What is running: the form's share, or a change to one sharee (by address). */
type Pending = { kind: 'add' } | { kind: 'member'; email: string };

export function SharePeople({ album, actions }: SharePeopleProps) {
  const { t } = useTranslation('photos');
  const email = useCheckedValue<AddressProblem>();
  const [role, setRole] = useState<ShareRole>('VIEWER');
  const [problem, setProblem] = useState<RequestProblem>();
  const [pending, setPending] = useState<Pending>();
  const [removing, setRemoving] = useState<string>();

  const run = (what: Pending, request: () => Promise<unknown>, onFailure: (error: unknown) => void) => {
    if (pending) return;
    setPending(what);
    setProblem(undefined);
    request().then(
      () => setPending(undefined),
      (error: unknown) => {
        setPending(undefined);
        onFailure(error);
      },
    );
  };

  const submit = () => {
    const address = normalizedAddress(email.value);
    const found = addressProblem(address, album);
    email.setProblem(found);
    if (found) return;
    run(
      { kind: 'add' },
      async () => {
        await actions.share(album, address, role);
        email.setValue('');
      },
      (error) => {
        const failure = shareFailure(error);
        if (failure === 'unknown') email.setProblem(failure);
        else setProblem(failure);
      },
    );
  };

  const changeRole = (member: AlbumMember, next: ShareRole) =>
    run(
      { kind: 'member', email: member.email },
      () => actions.share(album, member.email, next),
      (error) => setProblem(requestFailure(error)),
    );

  const remove = (member: AlbumMember) =>
    run(
      { kind: 'member', email: member.email },
      async () => {
        await actions.unshare(album, member.email);
        setRemoving(undefined);
      },
      (error) => setProblem(requestFailure(error)),
    );

  const busy = pending !== undefined;
  return (
    <ShareSection heading={t('share.people_heading')} intro={t('share.people_intro')}>
      {album.sharees.length === 0 ? (
        <Typography variant="body2" sx={{ my: 1 }}>
          {t('share.none')}
        </Typography>
      ) : (
        <Box component="ul" aria-label={t('share.sharees_label')} sx={{ listStyle: 'none', p: 0, my: 1 }}>
          {album.sharees.map((member) => (
            <Box component="li" key={member.id} sx={{ py: 0.5 }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Typography sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{member.email}</Typography>
                <TextField
                  select
                  size="small"
                  value={member.role === 'COLLABORATOR' ? 'COLLABORATOR' : 'VIEWER'}
                  disabled={busy}
                  onChange={(event) => changeRole(member, event.target.value as ShareRole)}
                  slotProps={{
                    select: { native: true },
                    htmlInput: { 'aria-label': t('share.role_of', { email: member.email }) },
                  }}
                >
                  {shareRoles.map((each) => (
                    <option key={each} value={each}>
                      {t(each === 'VIEWER' ? 'share.role_viewer' : 'share.role_collaborator')}
                    </option>
                  ))}
                </TextField>
                <IconButton
                  aria-label={t('share.remove', { email: member.email })}
                  disabled={busy}
                  onClick={() => setRemoving(member.email)}
                >
                  <PersonRemoveIcon />
                </IconButton>
              </Box>
              {removing === member.email && (
                <InlineConfirm
                  text={t('share.remove_confirm', { email: member.email })}
                  confirmLabel={t('share.remove_button')}
                  pending={pending?.kind === 'member' && pending.email === member.email}
                  onCancel={() => setRemoving(undefined)}
                  onConfirm={() => remove(member)}
                />
              )}
            </Box>
          ))}
        </Box>
      )}
      <InlineForm onSubmit={submit} layout={{ mt: 2 }}>
        <CheckedField
          type="email"
          label={t('share.email_label')}
          field={email}
          says={(problem) => t(`share.error_${problem}`)}
          sx={{ flex: '1 1 14rem' }}
          slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false, maxLength: 320 } }}
        />
        <TextField
          select
          size="small"
          label={t('share.role_label')}
          value={role}
          onChange={(event) => setRole(event.target.value as ShareRole)}
          slotProps={{ select: { native: true } }}
        >
          {shareRoles.map((each) => (
            <option key={each} value={each}>
              {t(each === 'VIEWER' ? 'share.role_viewer' : 'share.role_collaborator')}
            </option>
          ))}
        </TextField>
        <LoadingButton type="submit" variant="contained" loading={pending?.kind === 'add'} disabled={busy}>
          {t('share.add')}
        </LoadingButton>
      </InlineForm>
      {problem && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {t(`share.error_${problem}`)}
        </Alert>
      )}
    </ShareSection>
  );
}
