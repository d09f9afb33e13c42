// One account signs in with its password at photos, accounts and cast (auth is covered by the sign-up
// test), and each app lands on its own home page showing who is signed in.
import { test } from '@playwright/test';

import { createAccount } from '../api.ts';
import { SecretsCollector } from '../secrets.ts';
import type { AppName } from '../stack.ts';
import { signIn } from '../ui.ts';

const apps: AppName[] = ['photos', 'accounts', 'cast'];

test.describe('the same account signs in at every app', () => {
  let account: Awaited<ReturnType<typeof createAccount>>['account'];
  test.beforeAll(async () => {
    ({ account } = await createAccount({ app: 'photos' }));
  });

  for (const app of apps) {
    test(`at ${app}, landing on its home page`, async ({ page }, testInfo) => {
      test.setTimeout(60_000);
      await signIn(page, app, account);
      const secrets = new SecretsCollector(testInfo).add('emails', account.email);
      await secrets.fromSignedInPage(page, account.password);
      await secrets.save();
    });
  }
});
