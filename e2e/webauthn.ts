// Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain), for the passkey tests: a
// platform authenticator with user verification attached to one tab, which answers the tab's
// navigator.credentials calls on its own. A passkey made in one tab is handed to another tab's
// authenticator as a synced passkey would be (`credentials` → `add`).
import type { CDPSession, Page } from '@playwright/test';

/** A credential as the WebAuthn domain describes it (private key included, PKCS#8 in base64). */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

export class VirtualAuthenticator {
  private constructor(
    private readonly session: CDPSession,
    private readonly id: string,
  ) {}

  /** Attaches a new authenticator to `page`'s tab; it stays through navigations, to any origin. */
  static async attach(page: Page, { verifies = true }: { verifies?: boolean } = {}): Promise<VirtualAuthenticator> {
    const session = await page.context().newCDPSession(page);
    await session.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await session.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: verifies,
        automaticPresenceSimulation: true,
      },
    });
    return new VirtualAuthenticator(session, authenticatorId);
  }

  async credentials(): Promise<VirtualCredential[]> {
    const { credentials } = await this.session.send('WebAuthn.getCredentials', { authenticatorId: this.id });
    return credentials;
  }

  async add(credential: VirtualCredential): Promise<void> {
    await this.session.send('WebAuthn.addCredential', { authenticatorId: this.id, credential });
  }

  async clear(): Promise<void> {
    await this.session.send('WebAuthn.clearCredentials', { authenticatorId: this.id });
  }

  /** Resolves at the next assertion this authenticator signs (a sign-in with one of its passkeys). */
  nextAssertion(): Promise<void> {
    return new Promise((resolve) => this.session.once('WebAuthn.credentialAsserted', () => resolve()));
  }
}
