// The dialogs of the codes page, each fetched the first time it opens (the editor and the conflict
// dialog also ahead of time, see prefetchDialogs). The page's one dialog state says which is open; the
// conflict dialog follows the vault's conflicts instead.
import { lazy, Suspense, useState, type ReactNode } from 'react';

import type { Code, CodeData } from '../../services/types.ts';
import type { Vault, VaultConflict } from '../../vault/vault.ts';
import { dialogOfKind, type PageDialog, type PageDialogKind } from './page-dialog.ts';

const loadEditor = () => import('../editor/CodeEditorDialog.tsx');
const loadShowQR = () => import('../editor/ShowQRDialog.tsx');
const loadConflict = () => import('../editor/ConflictDialog.tsx');
const loadShare = () => import('../share/ShareDialog.tsx');
const loadTags = () => import('../editor/TagsDialog.tsx');
// Import and export are rare: fetched only when opened, never ahead of time.
const ImportDialog = lazy(() => import('../import/ImportDialog.tsx').then((m) => ({ default: m.ImportDialog })));
const ExportDialog = lazy(() => import('../export/ExportDialog.tsx').then((m) => ({ default: m.ExportDialog })));
const CodeEditorDialog = lazy(() => loadEditor().then((m) => ({ default: m.CodeEditorDialog })));
const ShowQRDialog = lazy(() => loadShowQR().then((m) => ({ default: m.ShowQRDialog })));
const ConflictDialog = lazy(() => loadConflict().then((m) => ({ default: m.ConflictDialog })));
const ShareDialog = lazy(() => loadShare().then((m) => ({ default: m.ShareDialog })));
const TagsDialog = lazy(() => loadTags().then((m) => ({ default: m.TagsDialog })));

/** Fetches the code of the dialogs most likely to open (the editor, a conflict). */
export function prefetchDialogs(onError: (error: unknown) => void): void {
  for (const load of [loadEditor, loadConflict]) load().catch(onError);
}

export interface PageDialogsProps {
  dialog: PageDialog | undefined;
  onClose: (kind: PageDialogKind) => void;
  /** Every code, trashed ones included; `codes`: those outside the trash (for the tags). */
  allCodes: Code[];
  codes: Code[];
  timeOffsetMs: number;
  onSave: (data: CodeData, original?: Code) => Promise<void>;
  onRenameTag: (from: string, to: string) => Promise<void>;
  /** The first conflict of the vault's snapshot, resolved through `vault`. */
  conflict: VaultConflict | undefined;
  vault: Vault;
}

export function PageDialogs(props: PageDialogsProps) {
  const { dialog, onClose, allCodes, codes, conflict, vault } = props;
  const editor = dialogOfKind(dialog, 'editor');
  const qrCode = dialogOfKind(dialog, 'showQR')?.code;
  const shareCode = dialogOfKind(dialog, 'share')?.code;
  const kind = dialog?.kind;
  return (
    <>
      <OnceOpened when={editor !== undefined}>
        <CodeEditorDialog
          open={editor !== undefined}
          target={editor?.target ?? { kind: 'add' }}
          codes={allCodes}
          onClose={() => onClose('editor')}
          onSave={props.onSave}
        />
      </OnceOpened>
      <OnceOpened when={qrCode !== undefined}>
        <ShowQRDialog code={qrCode} onClose={() => onClose('showQR')} />
      </OnceOpened>
      <OnceOpened when={shareCode !== undefined}>
        <ShareDialog code={shareCode} timeOffsetMs={props.timeOffsetMs} onClose={() => onClose('share')} />
      </OnceOpened>
      <OnceOpened when={kind === 'tags'}>
        <TagsDialog open={kind === 'tags'} codes={codes} onClose={() => onClose('tags')} onRename={props.onRenameTag} />
      </OnceOpened>
      <OnceOpened when={kind === 'import'}>
        <ImportDialog open={kind === 'import'} onClose={() => onClose('import')} vault={vault} codes={allCodes} />
      </OnceOpened>
      <OnceOpened when={kind === 'export'}>
        <ExportDialog open={kind === 'export'} onClose={() => onClose('export')} codes={allCodes} />
      </OnceOpened>
      <OnceOpened when={conflict !== undefined}>
        <ConflictDialog conflict={conflict} onResolve={(choice) => vault.resolveConflict(conflict?.id ?? '', choice)} />
      </OnceOpened>
    </>
  );
}

/** Mounts `children` from the first time `when` is true on (so that closing can animate). */
function OnceOpened({ when, children }: { when: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(when);
  if (when && !opened) setOpened(true);
  return opened || when ? <Suspense fallback={null}>{children}</Suspense> : null;
}
