// The viewer for a page's first load: nothing but this wrapper, which fetches Viewer.tsx the first time the
// viewer opens and keeps it mounted from then on (so that closing can animate and focus returns to the grid).
import { lazy, Suspense, useState } from 'react';

import { log } from '@ente/shared/log.ts';

import type { ViewerProps } from './Viewer.tsx';

const loadViewer = () => import('./Viewer.tsx');
const Viewer = lazy(() => loadViewer().then((m) => ({ default: m.Viewer })));

/** Fetches the viewer's code ahead of time (say, when the grid first shows), so that it opens at once. */
export function prefetchViewer(): void {
  loadViewer().catch((e: unknown) => log.warn('Could not fetch the viewer', e));
}

export function LazyViewer(props: ViewerProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  return opened || props.open ? (
    <Suspense fallback={null}>
      <Viewer {...props} />
    </Suspense>
  ) : null;
}
