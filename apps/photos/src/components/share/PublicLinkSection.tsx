// The public link part of the share dialog. Without a link: what one does, and "Create link". With one: its
// address (read-only, selectable, with Copy; the album key is in its fragment), then its settings, each applied
// as soon as it is chosen: downloads, collecting (others add photos), a password (set, changed or removed; the
// library derives its hash in the crypto worker), the expiry (never, a preset, or a day), the device limit;
// and "Remove link", which asks first.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';
import { currentLocale } from '@ente/shared/i18n/i18n.ts';

import type { Album, AlbumLink } from '../../library/types.ts';
import { InlineConfirm } from './InlineConfirm.tsx';
import {
  dateFieldValue,
  dateValidTill,
  expiryPresets,
  presetValidTill,
  type ExpiryChoice,
  type ExpiryPreset,
} from './link-expiry.ts';
import { requestFailure, type RequestProblem } from './share-errors.ts';
import { CheckedField, InlineForm, ShareSection, useCheckedValue } from './share-parts.tsx';
import type { LinkChange, ShareActions } from './share-types.ts';

/** The device limits offered (the server takes 0 to 50; 0 is none). */
export const deviceLimits = [0, 2, 5, 10, 25, 50] as const;

export interface PublicLinkSectionProps {
  album: Album;
  /**
   * The address to share (the album key in its fragment), when the album has a link whose URL may carry the key;
   * a link without one is shown as unavailable (its settings and removal stay).
   */
  linkURL: string | undefined;
  actions: Pick<ShareActions, 'createLink' | 'updateLink' | 'deleteLink'>;
}

type Problem = RequestProblem | 'copy';

export function PublicLinkSection(props: PublicLinkSectionProps) {
  const { album, actions } = props;
  const { t } = useTranslation('photos');
  const [pending, setPending] = useState<string>();
  const [problem, setProblem] = useState<Problem>();

  /** Runs one of the link's requests (`what` names the control that shows it running); true when it succeeded. */
  const run = async (what: string, request: () => Promise<unknown>): Promise<boolean> => {
    if (pending) return false;
    setPending(what);
    setProblem(undefined);
    try {
      await request();
      return true;
    } catch (error) {
      setProblem(requestFailure(error));
      return false;
    } finally {
      setPending(undefined);
    }
  };
  const { link } = album;

  return (
    <ShareSection heading={t('link.heading')} intro={t('link.intro')}>
      {link ? (
        <LinkSettings {...props} link={link} pending={pending} run={run} onCopyFailed={() => setProblem('copy')} />
      ) : (
        <LoadingButton
          variant="contained"
          loading={pending === 'create'}
          onClick={() => void run('create', () => actions.createLink(album))}
        >
          {t('link.create')}
        </LoadingButton>
      )}
      {problem && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {problem === 'copy' ? t('link.copy_failed') : t(`share.error_${problem}`)}
        </Alert>
      )}
    </ShareSection>
  );
}

interface LinkSettingsProps extends PublicLinkSectionProps {
  link: AlbumLink;
  pending: string | undefined;
  run: (what: string, request: () => Promise<unknown>) => Promise<boolean>;
  onCopyFailed: () => void;
}

function LinkSettings({ album, link, linkURL, pending, run, actions, onCopyFailed }: LinkSettingsProps) {
  const { t } = useTranslation('photos');
  const id = useId();
  const [copied, setCopied] = useState(false);
  const [removing, setRemoving] = useState(false);
  const busy = pending !== undefined;
  const update = (what: string, change: LinkChange) => run(what, () => actions.updateLink(album, change));

  const copy = async () => {
    if (!linkURL) return;
    try {
      await navigator.clipboard.writeText(linkURL);
      setCopied(true);
    } catch {
      onCopyFailed();
    }
  };

  return (
    <>
      {linkURL === undefined ? (
        // The server's URL is not https (nor http on this machine): no address is offered to carry the key.
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('link.unavailable')}
        </Alert>
      ) : (
        <>
          <Typography component="label" htmlFor={`${id}-url`} variant="subtitle2" sx={{ display: 'block' }}>
            {t('link.url_label')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 2 }}>
            <OutlinedInput
              id={`${id}-url`}
              value={linkURL}
              readOnly
              fullWidth
              size="small"
              onFocus={(event) => event.target.select()}
              inputProps={{ spellCheck: false, 'data-testid': 'public-link-url' }}
              sx={{ fontFamily: 'monospace' }}
            />
            <LoadingButton variant="outlined" done={copied} onClick={() => void copy()} sx={{ flexShrink: 0 }}>
              {t('link.copy')}
            </LoadingButton>
          </Box>
        </>
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column' }}>
        {(
          [
            ['enableDownload', t('link.downloads')],
            ['enableCollect', t('link.collect')],
          ] as const
        ).map(([setting, label]) => (
          <FormControlLabel
            key={setting}
            label={label}
            control={
              <Switch
                checked={link[setting]}
                disabled={busy}
                onChange={(event) => void update(setting, { [setting]: event.target.checked })}
              />
            }
          />
        ))}
      </Box>
      <PasswordSetting link={link} pending={pending} update={update} />
      <ExpirySetting link={link} busy={busy} pending={pending} update={update} />
      <TextField
        select
        size="small"
        label={t('link.devices_label')}
        value={String(link.deviceLimit)}
        disabled={busy}
        onChange={(event) => void update('devices', { deviceLimit: Number(event.target.value) })}
        slotProps={{ select: { native: true } }}
        sx={{ mt: 2, minWidth: '12rem' }}
      >
        {/* A limit set elsewhere that is not one of ours is still shown as it is. */}
        {[...new Set<number>([...deviceLimits, link.deviceLimit])].map((limit) => (
          <option key={limit} value={String(limit)}>
            {limit === 0 ? t('link.devices_none') : t('link.devices_count', { count: limit })}
          </option>
        ))}
      </TextField>
      <Box sx={{ mt: 2 }}>
        {removing ? (
          <InlineConfirm
            text={t('link.remove_confirm')}
            confirmLabel={t('link.remove')}
            pending={pending === 'remove'}
            onCancel={() => setRemoving(false)}
            onConfirm={() => void run('remove', () => actions.deleteLink(album))}
          />
        ) : (
          <Button color="error" disabled={busy} onClick={() => setRemoving(true)}>
            {t('link.remove')}
          </Button>
        )}
      </Box>
    </>
  );
}

function PasswordSetting({
  link,
  pending,
  update,
}: {
  link: AlbumLink;
  pending: string | undefined;
  update: (what: string, change: LinkChange) => Promise<boolean>;
}) {
  const { t } = useTranslation('photos');
  const password = useCheckedValue<'missing'>();
  const busy = pending !== undefined;

  const submit = () => {
    if (password.value === '') {
      password.setProblem('missing');
      return;
    }
    // The field empties once the password is set: it is not kept in the page longer than that.
    void update('password', { password: password.value }).then((done) => done && password.setValue(''));
  };

  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t(link.passwordEnabled ? 'link.password_on' : 'link.password_off')}
      </Typography>
      <InlineForm onSubmit={submit}>
        <CheckedField
          type="password"
          label={t('link.password_label')}
          field={password}
          says={() => t('link.password_required')}
          slotProps={{ htmlInput: { autoComplete: 'new-password', maxLength: 256 } }}
        />
        <LoadingButton type="submit" variant="outlined" loading={pending === 'password'} disabled={busy}>
          {t(link.passwordEnabled ? 'link.password_change' : 'link.password_set')}
        </LoadingButton>
        {link.passwordEnabled && (
          <LoadingButton
            loading={pending === 'no-password'}
            disabled={busy}
            onClick={() => void update('no-password', { password: null })}
          >
            {t('link.password_remove')}
          </LoadingButton>
        )}
      </InlineForm>
    </Box>
  );
}

function ExpirySetting({
  link,
  busy,
  pending,
  update,
}: {
  link: AlbumLink;
  busy: boolean;
  pending: string | undefined;
  update: (what: string, change: LinkChange) => Promise<boolean>;
}) {
  const { t } = useTranslation('photos');
  const [choice, setChoice] = useState<ExpiryChoice>(link.validTill === 0 ? 'never' : 'date');
  const [firstDay] = useState(() => dateFieldValue(link.validTill, Date.now()));
  const day = useCheckedValue<'past'>(firstDay);
  // Whether the link has expired already, as of when the dialog showed it.
  const [shownAt] = useState(() => Date.now());
  const statusId = useId();

  const choose = (next: ExpiryChoice) => {
    setChoice(next);
    day.setProblem(undefined);
    if (next !== 'date') void update('expiry', { validTill: presetValidTill(next, Date.now()) });
  };

  const setDate = () => {
    const validTill = dateValidTill(day.value);
    if (validTill === undefined || validTill <= Date.now() * 1000) {
      day.setProblem('past');
      return;
    }
    void update('expiry-date', { validTill });
  };

  const format = (micros: number) =>
    new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(micros / 1000);
  let status;
  if (link.validTill === 0) status = t('link.expires_never');
  else if (link.validTill <= shownAt * 1000) status = t('link.expired', { date: format(link.validTill) });
  else status = t('link.expires_at', { date: format(link.validTill) });

  return (
    <Box sx={{ mt: 2 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label={t('link.expiry_label')}
          value={choice}
          disabled={busy}
          onChange={(event) => choose(event.target.value as ExpiryChoice)}
          slotProps={{ select: { native: true }, htmlInput: { 'aria-describedby': statusId } }}
          sx={{ minWidth: '12rem' }}
        >
          {[...expiryPresets, 'date' as const].map((each: ExpiryPreset | 'date') => (
            <option key={each} value={each}>
              {t(`link.expiry_${each}`)}
            </option>
          ))}
        </TextField>
        {choice === 'date' && (
          <InlineForm onSubmit={setDate} layout={{ flexWrap: 'nowrap' }}>
            <CheckedField
              type="date"
              label={t('link.expiry_date_label')}
              field={day}
              says={() => t('link.expiry_date_past')}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <LoadingButton type="submit" variant="outlined" loading={pending === 'expiry-date'} disabled={busy}>
              {t('link.expiry_date_set')}
            </LoadingButton>
          </InlineForm>
        )}
      </Box>
      <Typography id={statusId} variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
        {status}
      </Typography>
    </Box>
  );
}
