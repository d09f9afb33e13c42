// A link to another route of the app: a real anchor (so it can be opened in a new tab, and is read as
// a link), followed with the client-side router. Not next/link, whose links prefetch their target's
// code when the browser is idle, which would count against every sign-in page's first load; and not
// MUI's Link, a kilobyte more in that load for what a styled anchor does (underlined, accent colour,
// docs/product.md#look). `LinkButton` is a button that looks the same, for the secondary actions
// among the links (resend a code, use another account).
import Typography from '@mui/material/Typography';
import { useRouter } from 'next/router';
import type { MouseEvent, ReactNode } from 'react';

export interface RouteLinkProps {
  href: string;
  children: ReactNode;
  /** Runs before the route changes (e.g. to forget a remembered redirect). */
  onFollow?: () => void;
}

export function RouteLink({ href, children, onFollow }: RouteLinkProps) {
  const router = useRouter();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    // Let the browser handle a new tab or window.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onFollow?.();
    void router.push(href);
  };
  return (
    <Typography component="a" href={href} onClick={follow} variant="body1" sx={linkStyle}>
      {children}
    </Typography>
  );
}

export interface LinkButtonProps {
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}

/** A button that looks like the links next to it. */
export function LinkButton({ onClick, disabled = false, children }: LinkButtonProps) {
  return (
    <Typography
      component="button"
      type="button"
      onClick={onClick}
      disabled={disabled}
      variant="body1"
      sx={{
        ...linkStyle,
        p: 0,
        border: 0,
        bgcolor: 'transparent',
        cursor: 'pointer',
        textAlign: 'left',
        '&:disabled': { color: 'text.secondary', textDecoration: 'none', cursor: 'default' },
      }}
    >
      {children}
    </Typography>
  );
}

const linkStyle = {
  color: 'primary.main',
  textDecoration: 'underline',
  textUnderlineOffset: '0.15em',
  borderRadius: 0.5,
  '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
} as const;
