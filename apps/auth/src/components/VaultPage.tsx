// The content of /auth once the user is signed in and this tab is unlocked (docs/product.md#the-codes),
// loaded with import() by pages/auth.tsx so that none of it is in the page's first load. It fetches the
// `codes` translations and opens the vault at once, then shows the codes: search, tag chips, sort,
// display options, the list, the trash, and the dialogs of the editor, QR, share and conflicts (each
// fetched when first needed). Editing is disabled, with the reason shown, while the vault is read-only.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { ParseKeys } from 'i18next';
import { useRouter } from 'next/router';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { savedDisplayOptions, saveDisplayOptions, type DisplayOptions } from '../services/display-options.ts';
import { forgetSecrets } from '../services/otp.ts';
import { createTicker } from '../services/ticker.ts';
import type { Code } from '../services/types.ts';
import { useVaultSnapshot } from '../services/use-vault.ts';
import { takeVault } from '../services/vault-start.ts';
import { visibleText } from '../services/visible-text.ts';
import { VaultError, type Vault } from '../vault/vault.ts';
import { useCommands, usePageKeys } from './codes-page/commands.ts';
import { pageDialogReducer } from './codes-page/page-dialog.ts';
import { PageDialogs } from './codes-page/PageDialogs.tsx';
import { useCodeCopy } from './codes-page/use-code-copy.ts';
import { useCodeList } from './codes-page/use-code-list.ts';
import { usePageStartUp } from './codes-page/use-page-start-up.ts';
import { useVaultWrites } from './codes-page/use-vault-writes.ts';
import { useImageDrop } from './editor/use-image-drop.ts';
import { BrandIndexContext } from './list/BrandAvatar.tsx';
import { CardMenu } from './list/CardMenu.tsx';
import { CodeList, type ListActions } from './list/CodeList.tsx';
import { neighboursOf } from './list/list-model.ts';
import { ListToolbar, TagFilter } from './list/ListToolbar.tsx';
import { Toast, useToast } from './list/Toast.tsx';
import { IdleLock } from './lock/IdleLock.tsx';

/** Opens the vault and the translations, then shows the codes. */
export default function VaultPage() {
  const router = useRouter();
  const { onGenericError } = useDialog();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ vault?: Vault; error?: unknown }>({});

  useEffect(() => {
    let cancelled = false;
    let opened: Vault | undefined;
    // Both at once: the vault reads its cache while the translations arrive (usually started already
    // by pages/auth.tsx, while this chunk was downloading).
    const vault = takeVault();
    vault.then(
      (value) => {
        if (cancelled) value.close();
        else setState({ vault: (opened = value) });
      },
      (error: unknown) => {
        void vault.then((value) => value.close()).catch(() => undefined);
        if (!cancelled) setState({ error });
      },
    );
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, [attempt]);

  const { error } = state;
  const redirect = error instanceof VaultError ? redirectFor(error) : undefined;
  useEffect(() => {
    if (redirect) void router.replace(redirect);
    else if (error !== undefined && !(error instanceof VaultError)) {
      // The translations could not be fetched (offline before they were ever cached): the generic
      // dialog of the shell says so, and closing it tries again.
      onGenericError(error, { message: 'Could not open the codes', onClose: () => setAttempt((n) => n + 1) });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error]);

  const retry = () => {
    setState({});
    setAttempt((n) => n + 1);
  };
  if (state.vault) return <OpenVault vault={state.vault} onReopen={retry} />;
  if (error instanceof VaultError && !redirect) return <OpenFailed errorKey={error.errorKey} onRetry={retry} />;
  return <LoadingOverlay />;
}

/**
 * The codes while the vault is open. Once it closes (the idle lock, logout, a sign-out in another tab),
 * the whole view unmounts at once, so that none of its state (codes, notes, an editor's fields) stays in
 * memory while the page leaves; what remains says the tab is locked, and the idle lock's cover stays above.
 */
export function OpenVault({ vault, onReopen }: { vault: Vault; onReopen: () => void }) {
  // 'locked' is the reason of a closed vault only (vault.ts, close()).
  const closed = useVaultSnapshot(vault).readOnlyReason === 'locked';
  useEffect(() => {
    if (closed) forgetSecrets();
  }, [closed]);
  return (
    <>
      {closed ? <OpenFailed errorKey="vault.locked" onRetry={onReopen} /> : <VaultView vault={vault} />}
      <IdleLock vault={vault} />
    </>
  );
}

function redirectFor(error: VaultError): string | undefined {
  if (error.errorKey === 'vault.locked') return '/credentials';
  if (error.errorKey === 'vault.notSignedIn') return '/login';
  return undefined;
}

function OpenFailed({ errorKey, onRetry }: { errorKey: VaultError['errorKey']; onRetry: () => void }) {
  const { t } = useTranslation('codes');
  return (
    <PageFrame title={t('list.title')}>
      <Typography role="alert" sx={{ mb: 2 }}>
        {t(errorKey)}
      </Typography>
      <Button variant="contained" onClick={onRetry}>
        {t('list.retry')}
      </Button>
    </PageFrame>
  );
}

/**
 * The codes page's layout. What it shows comes from hooks: the list as narrowed (use-code-list), the
 * writes (use-vault-writes), copying (use-code-copy), the command map the toolbar, menu, cards and keys
 * share (commands), the one open dialog (page-dialog) and what starts once (use-page-start-up).
 */
export function VaultView({ vault }: { vault: Vault }) {
  const { t } = useTranslation('codes');
  const { t: tc } = useTranslation('common');
  const snapshot = useVaultSnapshot(vault);
  const editable = snapshot.readOnlyReason === undefined;

  const [options, setOptionsState] = useState(savedDisplayOptions);
  const setOptions = useCallback((next: DisplayOptions) => {
    setOptionsState(next);
    saveDisplayOptions(next);
  }, []);
  const [dialog, dispatchDialog] = useReducer(pageDialogReducer, undefined);
  const [menu, setMenu] = useState<{ code: Code; anchor: HTMLElement }>();
  const searchRef = useRef<HTMLInputElement>(null);
  const pageRef = useRef<HTMLDivElement>(null);
  const { toast, announce, message, announcement } = useToast();

  // One clock for every card (services/ticker.ts), on server time.
  const [ticker] = useState(() => createTicker(snapshot.timeOffsetMs));
  useEffect(() => ticker.setOffset(snapshot.timeOffsetMs), [ticker, snapshot.timeOffsetMs]);

  const writes = useVaultWrites(vault, toast);
  const list = useCodeList(snapshot.items, writes.pendingPositions, options.sort);
  const { entries, view } = list;
  const reorderable = editable && view === 'codes' && options.sort === 'manual';
  const { copy, revealedID } = useCodeCopy({ ticker, options, editable, write: writes.write, toast });
  const { brandIndex, update } = usePageStartUp({
    ready: snapshot.status === 'ready',
    hasReadableCodes: list.codes.length > 0,
    showsCodes: entries.some((entry) => entry.kind === 'code'),
  });

  const commands = useCommands({
    openDialog: (opened) => dispatchDialog({ type: 'open', dialog: opened }),
    focusSearch: () => searchRef.current?.focus(),
    clearSearch: list.clearSearch,
    copy,
    write: writes.write,
    confirmDeleteForever: writes.confirmDeleteForever,
    writePositions: writes.writePositions,
    ordered: list.ordered,
    entries,
    reorderable,
    announce,
    say: (key) => t(key),
    sayMoved: (code, position, total) =>
      t('list.moved', { name: visibleText(code.issuer || code.account), position, total }),
  });
  usePageKeys(pageRef, commands, {
    searchShown: list.hasCodes,
    editable,
    filtered: list.query !== '' || list.chosenTags.length > 0,
  });
  const dragging = useImageDrop(editable && dialog === undefined, (image) =>
    dispatchDialog({ type: 'open', dialog: { kind: 'editor', target: { kind: 'add', image } } }),
  );

  const actions = useMemo<ListActions>(
    () => ({
      ticker,
      copy: (code, which) => commands.code[which === 'current' ? 'copy' : 'copyNext'](code),
      openMenu: (code, anchor) => setMenu({ code, anchor }),
      restore: commands.code.restore,
      deleteForever: commands.code.deleteForever,
      copyRaw: (raw) =>
        void navigator.clipboard.writeText(raw).then(
          () => toast(t('list.rawCopied')),
          () => toast(t('list.copyFailed')),
        ),
    }),
    [ticker, commands, t, toast],
  );

  const email = useMemo(() => savedUser()?.email, []);
  let canMove: { up: boolean; down: boolean } | undefined;
  if (menu && reorderable) {
    const { up, down } = neighboursOf(entries, menu.code);
    canMove = { up: up !== undefined, down: down !== undefined };
  }

  return (
    <BrandIndexContext value={brandIndex}>
      <Box ref={pageRef}>
        <PageFrame title={t('list.title')}>
          {email && (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: -1, mb: 2, overflowWrap: 'anywhere' }}>
              {tc('landing_signed_in_as', { email })}
            </Typography>
          )}
          <Banners
            vault={vault}
            readOnlyReason={snapshot.readOnlyReason}
            syncErrorKey={snapshot.syncErrorKey}
            update={update}
          />
          <ListToolbar
            hasCodes={list.hasCodes}
            query={list.query}
            onQueryChange={list.setQuery}
            searchRef={searchRef}
            options={options}
            onOptionsChange={setOptions}
            editable={editable}
            onAdd={commands.page.add}
            onImport={commands.page.import}
            onExport={list.allCodes.length ? commands.page.export : undefined}
          />
          <TagFilter
            tags={list.tags}
            selected={list.chosenTags}
            onChange={list.setSelectedTags}
            trashCount={list.trashed.length}
            view={view}
            onViewChange={list.setView}
            hasCodes={list.hasCodes}
            onManageTags={editable ? commands.page.manageTags : undefined}
          />
          {view === 'trash' && (
            <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
              {t('list.trashTitle')}
            </Typography>
          )}
          {snapshot.status === 'loading' && snapshot.items.length === 0 ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
              <CircularProgress aria-label={tc('loading')} />
            </Box>
          ) : snapshot.status === 'failed' && snapshot.items.length === 0 ? (
            <Box sx={{ py: 4 }}>
              <Typography role="alert" sx={{ mb: 2 }}>
                {t((snapshot.syncErrorKey ?? 'list.loadFailed') as ParseKeys<'codes'>)}
              </Typography>
              <Button variant="contained" onClick={() => void vault.sync()}>
                {t('list.retry')}
              </Button>
            </Box>
          ) : !list.hasCodes && view === 'codes' ? (
            <EmptyState editable={editable} onAdd={commands.page.add} />
          ) : entries.length === 0 ? (
            <Box sx={{ py: 4, textAlign: 'center' }}>
              <Typography sx={{ mb: 2 }}>{t('list.noMatch')}</Typography>
              <Button onClick={commands.page.clearSearch}>{t('list.clearSearch')}</Button>
            </Box>
          ) : (
            <CodeList
              entries={entries}
              view={view}
              label={view === 'trash' ? t('list.trashTitle') : t('list.title')}
              actions={actions}
              compact={options.compact}
              hidden={options.hideCodes}
              revealedID={revealedID}
              editable={editable}
              reorderable={reorderable}
              onMove={commands.move}
            />
          )}
        </PageFrame>
        {dragging && <DropHint />}
      </Box>
      <CardMenu
        target={menu}
        editable={editable}
        canMove={canMove}
        onAction={(action, code) => commands.code[action](code)}
        onClose={() => setMenu(undefined)}
      />
      <PageDialogs
        dialog={dialog}
        onClose={(kind) => dispatchDialog({ type: 'close', kind })}
        allCodes={list.allCodes}
        codes={list.codes}
        timeOffsetMs={snapshot.timeOffsetMs}
        onSave={writes.save}
        onRenameTag={(from, to) => writes.renameTag(list.codes, from, to)}
        conflict={snapshot.conflicts[0]}
        vault={vault}
      />
      <Toast message={message} announcement={announcement} />
    </BrandIndexContext>
  );
}

/** Why editing is off (offline, locked), the last sync failure with a retry, a new version to switch to. */
function Banners({
  vault,
  readOnlyReason,
  syncErrorKey,
  update,
}: {
  vault: Vault;
  readOnlyReason: 'offline' | 'locked' | undefined;
  syncErrorKey: string | undefined;
  update: (() => void) | undefined;
}) {
  const { t } = useTranslation('codes');
  return (
    <>
      <Box role="status">
        {readOnlyReason && (
          <Box sx={bannerSx} data-testid="read-only-banner">
            {readOnlyReason === 'offline' ? t('offline.readOnly') : t('list.readOnlyLocked')}
          </Box>
        )}
      </Box>
      {syncErrorKey && !readOnlyReason && (
        <Box sx={{ ...bannerSx, display: 'flex', alignItems: 'center', gap: 2 }}>
          <Box sx={{ flex: 1 }}>{t(syncErrorKey as ParseKeys<'codes'>)}</Box>
          <Button size="small" color="inherit" onClick={() => void vault.sync()}>
            {t('list.retry')}
          </Button>
        </Box>
      )}
      {update && (
        <Box sx={{ ...bannerSx, display: 'flex', alignItems: 'center', gap: 2 }}>
          <Box sx={{ flex: 1 }}>{t('offline.updateReady')}</Box>
          <Button size="small" color="inherit" onClick={update}>
            {t('offline.reload')}
          </Button>
        </Box>
      )}
    </>
  );
}

const bannerSx = {
  mb: 2,
  px: 2,
  py: 1.5,
  borderRadius: 1,
  typography: 'body2',
  border: 1,
  borderColor: 'divider',
  bgcolor: 'background.paper',
} as const;

function EmptyState({ editable, onAdd }: { editable: boolean; onAdd: () => void }) {
  const { t } = useTranslation('codes');
  return (
    <Box sx={{ py: 6, textAlign: 'center' }}>
      <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
        {t('list.emptyTitle')}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 3 }}>{t('list.emptyBody')}</Typography>
      <Button variant="contained" disabled={!editable} onClick={onAdd}>
        {t('list.addFirst')}
      </Button>
    </Box>
  );
}

function DropHint() {
  const { t } = useTranslation('codes');
  return (
    <Box
      aria-hidden
      sx={{
        position: 'fixed',
        inset: 8,
        zIndex: (theme) => theme.zIndex.modal - 1,
        pointerEvents: 'none',
        border: 2,
        borderStyle: 'dashed',
        borderColor: 'primary.main',
        borderRadius: 2,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'rgba(0, 0, 0, 0.4)',
        typography: 'h5',
        color: 'common.white',
      }}
    >
      {t('list.dropHint')}
    </Box>
  );
}
