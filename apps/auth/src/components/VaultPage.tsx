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
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { whenIdle } from '@ente/shared/app/when-idle.ts';
import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { log } from '@ente/shared/log.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { visibleText } from '@ente/shared/visible-text.ts';

import { loadBrandIndex, type BrandIndex } from '../services/brand-icons.ts';
import { codeData, renameTagIn } from '../services/code-edits.ts';
import { savedDisplayOptions, saveDisplayOptions, type DisplayOptions } from '../services/display-options.ts';
import { moveCode, positionChanges } from '../services/manual-order.ts';
import { codesAt, forgetSecrets } from '../services/otp.ts';
import { registerServiceWorker } from '../services/service-worker.ts';
import { createTicker } from '../services/ticker.ts';
import type { Code, CodeData, VaultItem } from '../services/types.ts';
import { useVaultSnapshot } from '../services/use-vault.ts';
import { takeVault } from '../services/vault-start.ts';
import { VaultConflictError, VaultError, type Vault } from '../services/vault.ts';
import { useImageDrop } from './editor/use-image-drop.ts';
import { BrandIndexContext } from './list/BrandAvatar.tsx';
import { CardMenu, type CardMenuAction } from './list/CardMenu.tsx';
import { CodeList, type ListActions } from './list/CodeList.tsx';
import { filterEntries, orderCodes, splitItems, tagsOf, type ListView } from './list/list-model.ts';
import { ListToolbar, TagFilter } from './list/ListToolbar.tsx';
import { Toast, useToast } from './list/Toast.tsx';
import { IdleLock } from './lock/IdleLock.tsx';

/** The performance mark of the first frame that shows codes (bench/vault.mjs reads it). */
const codesVisibleMark = 'ente:codes-visible';
let codesShownInThisDocument = false;

/** How long a hidden code stays visible once revealed. */
const revealDuration = 5000;

export type EditorTarget = { kind: 'add'; initial?: Partial<CodeData>; image?: Blob } | { kind: 'edit'; code: Code };

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

// The dialogs, each fetched the first time it opens (and ahead of time once the codes are on screen).
const loadEditor = () => import('./editor/CodeEditorDialog.tsx');
const loadShowQR = () => import('./editor/ShowQRDialog.tsx');
const loadConflict = () => import('./editor/ConflictDialog.tsx');
const loadShare = () => import('./share/ShareDialog.tsx');
const loadTags = () => import('./editor/TagsDialog.tsx');
// Import and export are rare: fetched only when opened, never ahead of time.
const ImportDialog = lazy(() => import('./import/ImportDialog.tsx').then((m) => ({ default: m.ImportDialog })));
const ExportDialog = lazy(() => import('./export/ExportDialog.tsx').then((m) => ({ default: m.ExportDialog })));
const CodeEditorDialog = lazy(() => loadEditor().then((m) => ({ default: m.CodeEditorDialog })));
const ShowQRDialog = lazy(() => loadShowQR().then((m) => ({ default: m.ShowQRDialog })));
const ConflictDialog = lazy(() => loadConflict().then((m) => ({ default: m.ConflictDialog })));
const ShareDialog = lazy(() => loadShare().then((m) => ({ default: m.ShareDialog })));
const TagsDialog = lazy(() => loadTags().then((m) => ({ default: m.TagsDialog })));

/** Mounts `children` from the first time `when` is true on (so that closing can animate). */
function OnceOpened({ when, children }: { when: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(when);
  if (when && !opened) setOpened(true);
  return opened || when ? <Suspense fallback={null}>{children}</Suspense> : null;
}

export function VaultView({ vault }: { vault: Vault }) {
  const { t } = useTranslation('codes');
  const { t: tc } = useTranslation('common');
  const { showDialog } = useDialog();
  const snapshot = useVaultSnapshot(vault);
  const editable = snapshot.readOnlyReason === undefined;

  const [options, setOptionsState] = useState(savedDisplayOptions);
  const setOptions = useCallback((next: DisplayOptions) => {
    setOptionsState(next);
    saveDisplayOptions(next);
  }, []);
  const [query, setQuery] = useState('');
  const [selectedTags, setSelectedTags] = useState<string[]>([]);
  const [chosenView, setView] = useState<ListView>('codes');
  const [editor, setEditor] = useState<EditorTarget>();
  const [qrCode, setQRCode] = useState<Code>();
  const [shareCode, setShareCode] = useState<Code>();
  const [managingTags, setManagingTags] = useState(false);
  const [transfer, setTransfer] = useState<'import' | 'export'>();
  const [menu, setMenu] = useState<{ code: Code; anchor: HTMLElement }>();
  const [revealedID, setRevealedID] = useState<string>();
  const [brandIndex, setBrandIndex] = useState<BrandIndex>();
  // A new version of the app that waits, and how to switch to it.
  const [update, setUpdate] = useState<() => void>();
  // Positions of a manual move already shown while their writes are under way.
  const [pendingPositions, setPendingPositions] = useState<ReadonlyMap<string, number>>(new Map());
  const searchRef = useRef<HTMLInputElement>(null);
  const pageRef = useRef<HTMLDivElement>(null);
  const { toast, announce, message, announcement } = useToast();

  // One clock for every card (services/ticker.ts), on server time.
  const [ticker] = useState(() => createTicker(snapshot.timeOffsetMs));
  useEffect(() => ticker.setOffset(snapshot.timeOffsetMs), [ticker, snapshot.timeOffsetMs]);

  const items = useMemo(() => withPositions(snapshot.items, pendingPositions), [snapshot.items, pendingPositions]);
  const { codes, trashed, broken } = useMemo(() => splitItems(items), [items]);
  // The trash view ends when the trash empties (also for a later trashing: back to the codes).
  if (chosenView === 'trash' && trashed.length === 0) setView('codes');
  const view: ListView = chosenView === 'trash' && trashed.length === 0 ? 'codes' : chosenView;
  const ordered = useMemo(() => orderCodes(codes, options.sort), [codes, options.sort]);
  const tags = useMemo(() => tagsOf(codes), [codes]);
  const chosenTags = useMemo(() => selectedTags.filter((tag) => tags.includes(tag)), [selectedTags, tags]);
  const entries = useMemo(
    () => filterEntries(ordered, trashed, broken, { view, query, tags: chosenTags, sort: options.sort }),
    [ordered, trashed, broken, view, query, chosenTags, options.sort],
  );
  const finding = codes.length > 0 || broken.length > 0;
  const allCodes = useMemo(() => [...codes, ...trashed], [codes, trashed]);
  const reorderable = editable && view === 'codes' && options.sort === 'manual';
  const ready = snapshot.status === 'ready';

  // The brand icons and the dialogs' code, once the codes are on screen.
  useEffect(() => {
    if (!ready || codes.length === 0 || brandIndex) return;
    let cancelled = false;
    void loadBrandIndex().then((index) => !cancelled && index && setBrandIndex(index));
    return () => {
      cancelled = true;
    };
  }, [ready, codes.length, brandIndex]);
  // The service worker (offline use) from the first time the codes show.
  const registered = useRef(false);
  useEffect(() => {
    if (!ready || registered.current) return;
    registered.current = true;
    void registerServiceWorker({ onUpdateReady: (apply) => setUpdate(() => apply) });
  }, [ready]);
  useEffect(
    () =>
      whenIdle(() => {
        for (const load of [loadEditor, loadConflict]) load().catch((e: unknown) => log.warn('Prefetch failed', e));
      }),
    [],
  );

  /** The vault's latest version of a code (a write needs its current updatedAt). */
  const latest = useCallback(
    (code: Code): Code => {
      for (const item of vault.snapshot().items) if (item.kind === 'code' && item.code.id === code.id) return item.code;
      return code;
    },
    [vault],
  );

  const showError = useCallback(
    (e: unknown) => {
      // A conflict shows its own dialog (the snapshot holds it).
      if (e instanceof VaultConflictError) return;
      log.error('A vault write failed', e);
      const errorKey = e instanceof VaultError ? e.errorKey : 'vault.unknown';
      showDialog({ title: t('list.failed'), content: t(errorKey), close: { text: tc('ok') } });
    },
    [showDialog, t, tc],
  );

  const write = useCallback(
    async (code: Code, change: (data: CodeData) => CodeData, done?: string) => {
      try {
        const current = latest(code);
        await vault.update(current, change(codeData(current)));
        if (done) toast(done);
      } catch (e) {
        showError(e);
      }
    },
    [latest, vault, toast, showError],
  );

  const reveal = useCallback((id: string) => setRevealedID(id), []);
  useEffect(() => {
    if (revealedID === undefined) return;
    const timer = setTimeout(() => setRevealedID(undefined), revealDuration);
    return () => clearTimeout(timer);
  }, [revealedID]);

  const usage = useRef(new Set<string>());
  const copy = useCallback(
    (code: Code, which: 'current' | 'next') => {
      let value: string;
      try {
        value = codesAt(code, ticker.now())[which];
      } catch (e) {
        log.warn('Could not generate a code', e);
        return;
      }
      if (options.hideCodes) reveal(code.id);
      navigator.clipboard.writeText(value).then(
        () => {
          toast(which === 'current' ? t('list.copied') : t('list.copiedNext'));
          // Usage feeds the "recently used" order (and other apps' counters). As in mobile, it is written
          // only while the list is in that order: a write per copy would sync every copy to every device.
          if (!editable || options.sort !== 'recent' || usage.current.has(code.id)) return;
          usage.current.add(code.id);
          void write(code, (data) => ({
            ...data,
            display: { ...data.display, lastUsedAt: Date.now() * 1000, tapCount: data.display.tapCount + 1 },
          })).finally(() => usage.current.delete(code.id));
        },
        (e: unknown) => {
          log.warn('Could not copy', e);
          toast(t('list.copyFailed'));
        },
      );
    },
    [ticker, options.hideCodes, options.sort, reveal, toast, t, editable, write],
  );

  // Manual order: the new positions show at once; the writes run one after the other, each on the
  // vault's latest version of its code.
  const writes = useRef<Promise<void>>(Promise.resolve());
  const pendingWrites = useRef(0);
  const move = useCallback(
    (id: string, targetID: string, where: 'before' | 'after') => {
      if (!reorderable) return;
      const next = moveCode(ordered, id, targetID, where);
      if (!next) return;
      const changes = positionChanges(next);
      if (changes.length === 0) return;
      setPendingPositions((current) => {
        const merged = new Map(current);
        for (const { code, position } of changes) merged.set(code.id, position);
        return merged;
      });
      const moved = next.find((code) => code.id === id);
      const visible = entries.filter((entry) => entry.kind === 'code' && entry.code.id !== id);
      const target = visible.findIndex((entry) => entry.kind === 'code' && entry.code.id === targetID);
      if (moved) {
        announce(
          t('list.moved', {
            name: visibleText(moved.issuer || moved.account),
            position: target + (where === 'after' ? 2 : 1),
            total: entries.length,
          }),
        );
      }
      pendingWrites.current += 1;
      writes.current = writes.current
        .then(async () => {
          for (const { code, position } of changes) {
            const current = latest(code);
            if (current.display.position === position) continue;
            await vault.update(current, { ...codeData(current), display: { ...current.display, position } });
          }
        })
        .catch(showError)
        .finally(() => {
          pendingWrites.current -= 1;
          if (pendingWrites.current === 0) setPendingPositions(new Map());
        });
    },
    [reorderable, ordered, entries, announce, t, latest, vault, showError],
  );

  const confirmDeleteForever = useCallback(
    (code: Code) => {
      const name = visibleText(code.issuer || code.account);
      showDialog({
        title: t('list.deleteForeverTitle'),
        content: t('list.deleteForeverBody', { name }),
        proceed: {
          text: t('list.deleteForever'),
          variant: 'critical',
          action: async () => {
            try {
              await vault.deleteForever(code.id, latest(code).updatedAt);
              toast(t('list.deleted'));
            } catch (e) {
              showError(e);
            }
          },
        },
        close: { text: tc('cancel') },
      });
    },
    [showDialog, t, tc, vault, latest, toast, showError],
  );

  const actions = useMemo<ListActions>(
    () => ({
      ticker,
      copy,
      openMenu: (code, anchor) => setMenu({ code, anchor }),
      restore: (code) =>
        void write(code, (data) => ({ ...data, display: { ...data.display, trashed: false } }), t('list.restored')),
      deleteForever: confirmDeleteForever,
      copyRaw: (raw) =>
        void navigator.clipboard.writeText(raw).then(
          () => toast(t('list.rawCopied')),
          () => toast(t('list.copyFailed')),
        ),
    }),
    [ticker, copy, write, t, confirmDeleteForever, toast],
  );

  const neighbours = (code: Code) => {
    const index = entries.findIndex((entry) => entry.kind === 'code' && entry.code.id === code.id);
    const before = entries[index - 1];
    const after = entries[index + 1];
    return {
      up: before?.kind === 'code' && before.code.display.pinned === code.display.pinned ? before.code : undefined,
      down: after?.kind === 'code' && after.code.display.pinned === code.display.pinned ? after.code : undefined,
    };
  };

  const onMenuAction = (action: CardMenuAction, code: Code) => {
    if (action === 'copyNext') copy(code, 'next');
    else if (action === 'edit') setEditor({ kind: 'edit', code });
    else if (action === 'showQR') setQRCode(code);
    else if (action === 'share') setShareCode(code);
    else if (action === 'pin') {
      const done = code.display.pinned ? t('list.unpinned') : t('list.pinnedDone');
      void write(code, (data) => ({ ...data, display: { ...data.display, pinned: !data.display.pinned } }), done);
    } else if (action === 'advance') {
      void write(code, (data) => ({ ...data, counter: data.counter + 1 }), t('list.advanced'));
    } else if (action === 'trash') {
      void write(code, (data) => ({ ...data, display: { ...data.display, trashed: true } }), t('list.trashed'));
    } else {
      const { up, down } = neighbours(code);
      const target = action === 'moveUp' ? up : down;
      if (target) move(code.id, target.id, action === 'moveUp' ? 'before' : 'after');
    }
  };

  const openAdd = useCallback((target: EditorTarget = { kind: 'add' }) => setEditor(target), []);
  const dialogOpen =
    editor !== undefined || qrCode !== undefined || shareCode !== undefined || managingTags || transfer !== undefined;
  const dragging = useImageDrop(editable && !dialogOpen, (image) => openAdd({ kind: 'add', image }));

  // Page-wide keys: `/` focuses the search, A adds a code, Esc clears the search and the chips.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      // Only keys typed on the page itself (a dialog or menu is a portal outside it), not in a field.
      if (!target || isTextField(target)) return;
      if (target !== document.body && !pageRef.current?.contains(target)) return;
      if (event.key === '/' && searchRef.current) {
        event.preventDefault();
        searchRef.current.focus();
      } else if ((event.key === 'a' || event.key === 'A') && editable && !event.shiftKey) {
        event.preventDefault();
        openAdd();
      } else if (event.key === 'Escape' && (query || chosenTags.length > 0)) {
        event.preventDefault();
        setQuery('');
        setSelectedTags([]);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [editable, openAdd, query, chosenTags.length]);

  const save = useCallback(
    async (data: CodeData, original?: Code) => {
      // Over the version the dialog opened with: a change made elsewhere meanwhile is a conflict the
      // person resolves, never silently overwritten.
      try {
        if (original) await vault.update(original, data);
        else await vault.add(data);
      } catch (e) {
        // The conflict dialog takes over from the editor: both versions are shown there.
        if (e instanceof VaultConflictError) return;
        throw e;
      }
      toast(original ? t('list.saved') : t('list.added'));
    },
    [vault, toast, t],
  );

  // A tag renamed on every code that has it, one write after the other.
  const renameTag = useCallback(
    async (from: string, to: string) => {
      for (const { code, data } of renameTagIn(codes, from, to)) await vault.update(latest(code), data);
      toast(t('list.saved'));
    },
    [codes, vault, latest, toast, t],
  );

  // The benchmark's "codes visible" (bench/vault.mjs): the first frame painted with cards.
  const showsCodes = entries.some((entry) => entry.kind === 'code');
  useEffect(() => {
    if (!showsCodes || codesShownInThisDocument) return;
    codesShownInThisDocument = true;
    requestAnimationFrame(() => setTimeout(() => performance.mark(codesVisibleMark)));
  }, [showsCodes]);

  const email = useMemo(() => savedUser()?.email, []);
  const conflict = snapshot.conflicts[0];
  let canMove: { up: boolean; down: boolean } | undefined;
  if (menu && reorderable) {
    const { up, down } = neighbours(menu.code);
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
            finding={finding}
            query={query}
            onQueryChange={setQuery}
            searchRef={searchRef}
            options={options}
            onOptionsChange={setOptions}
            editable={editable}
            onAdd={() => openAdd()}
            onImport={() => setTransfer('import')}
            onExport={allCodes.length ? () => setTransfer('export') : undefined}
          />
          <TagFilter
            tags={tags}
            selected={chosenTags}
            onChange={setSelectedTags}
            trashCount={trashed.length}
            view={view}
            onViewChange={setView}
            finding={finding}
            onManageTags={editable ? () => setManagingTags(true) : undefined}
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
          ) : !finding && view === 'codes' ? (
            <EmptyState editable={editable} onAdd={() => openAdd()} />
          ) : entries.length === 0 ? (
            <Box sx={{ py: 4, textAlign: 'center' }}>
              <Typography sx={{ mb: 2 }}>{t('list.noMatch')}</Typography>
              <Button
                onClick={() => {
                  setQuery('');
                  setSelectedTags([]);
                }}
              >
                {t('list.clearSearch')}
              </Button>
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
              onMove={move}
            />
          )}
        </PageFrame>
        {dragging && <DropHint />}
      </Box>
      <CardMenu
        target={menu}
        editable={editable}
        canMove={canMove}
        onAction={onMenuAction}
        onClose={() => setMenu(undefined)}
      />
      <OnceOpened when={editor !== undefined}>
        <CodeEditorDialog
          open={editor !== undefined}
          target={editor ?? { kind: 'add' }}
          codes={allCodes}
          onClose={() => setEditor(undefined)}
          onSave={save}
        />
      </OnceOpened>
      <OnceOpened when={qrCode !== undefined}>
        <ShowQRDialog code={qrCode} onClose={() => setQRCode(undefined)} />
      </OnceOpened>
      <OnceOpened when={shareCode !== undefined}>
        <ShareDialog code={shareCode} timeOffsetMs={snapshot.timeOffsetMs} onClose={() => setShareCode(undefined)} />
      </OnceOpened>
      <OnceOpened when={managingTags}>
        <TagsDialog open={managingTags} codes={codes} onClose={() => setManagingTags(false)} onRename={renameTag} />
      </OnceOpened>
      <OnceOpened when={transfer === 'import'}>
        <ImportDialog
          open={transfer === 'import'}
          onClose={() => setTransfer(undefined)}
          vault={vault}
          codes={allCodes}
        />
      </OnceOpened>
      <OnceOpened when={transfer === 'export'}>
        <ExportDialog open={transfer === 'export'} onClose={() => setTransfer(undefined)} codes={allCodes} />
      </OnceOpened>
      <OnceOpened when={conflict !== undefined}>
        <ConflictDialog conflict={conflict} onResolve={(choice) => vault.resolveConflict(conflict?.id ?? '', choice)} />
      </OnceOpened>
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

/** The items with the positions of manual moves not yet written. */
function withPositions(items: VaultItem[], positions: ReadonlyMap<string, number>): VaultItem[] {
  if (positions.size === 0) return items;
  return items.map((item) => {
    if (item.kind !== 'code') return item;
    const position = positions.get(item.code.id);
    if (position === undefined || position === item.code.display.position) return item;
    return { kind: 'code', code: { ...item.code, display: { ...item.code.display, position } } };
  });
}

function isTextField(element: HTMLElement): boolean {
  const tag = element.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || element.isContentEditable;
}
