// MUI's Alert, loaded when a page first has something to say with it: for pages that show one only when
// something went wrong (the passkey pages), so that its code stays out of their first load.
import type { AlertProps } from '@mui/material/Alert';
import { lazy, Suspense } from 'react';

const Alert = lazy(() => import('@mui/material/Alert'));

export function LazyAlert(props: AlertProps) {
  return (
    <Suspense fallback={null}>
      <Alert {...props} />
    </Suspense>
  );
}
