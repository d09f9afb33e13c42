// What the settings show about the account and its second factors, from `GET /users/details/v2`
// (docs/protocol.md#account), and the e-mail MFA switch (`PUT /users/email-mfa`).
import { userDetailsResponseSchema } from '@ente/protocol/users.ts';
import { getJSON, put } from '@ente/shared/http.ts';

import { toAccountsError } from './errors.ts';

export interface AccountDetails {
  email: string;
  isEmailMFAEnabled: boolean;
  /** Turning e-mail MFA off needs an SRP verifier (docs/protocol.md#account). */
  canDisableEmailMFA: boolean;
  isTwoFactorEnabled: boolean;
}

export async function getAccountDetails(): Promise<AccountDetails> {
  try {
    const { email, profileData } = await getJSON('/users/details/v2', userDetailsResponseSchema, {
      auth: true,
      params: { memoryCount: false },
    });
    return {
      email,
      isEmailMFAEnabled: profileData.isEmailMFAEnabled,
      canDisableEmailMFA: profileData.canDisableEmailMFA,
      isTwoFactorEnabled: profileData.isTwoFactorEnabled,
    };
  } catch (e) {
    throw toAccountsError(e, 'session');
  }
}

/** Turns the e-mail code as second factor on or off. */
export async function setEmailMFA(isEnabled: boolean): Promise<void> {
  try {
    await put('/users/email-mfa', { isEnabled }, { auth: true });
  } catch (e) {
    throw toAccountsError(e, 'session');
  }
}
