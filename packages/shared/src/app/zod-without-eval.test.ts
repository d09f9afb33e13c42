// The shell sets zod jitless without importing zod (zod-without-eval.ts); zod loaded afterwards must see it.
import type * as Zod from 'zod';
import type * as ZodCore from 'zod/v4/core';

const restorers: (() => void)[] = [];

afterEach(() => {
  restorers.splice(0).forEach((restore) => restore());
  delete globalThis.__zod_globalConfig;
});

/** Loads zod-without-eval (unless `withShell` is false), then zod, in a fresh module registry. */
async function loadZod(withShell = true) {
  let loaded!: { core: typeof ZodCore; zod: typeof Zod };
  await jest.isolateModulesAsync(async () => {
    if (withShell) await import('./zod-without-eval.ts');
    loaded = { core: await import('zod/v4/core'), zod: await import('zod') };
  });
  return loaded;
}

/** Counts the functions built from source text (what a CSP without 'unsafe-eval' refuses). */
function countEval(): { calls: number } {
  const counter = { calls: 0 };
  const original = globalThis.Function;
  globalThis.Function = new Proxy(original, {
    construct(target, args: string[]) {
      counter.calls++;
      return Reflect.construct(target, args);
    },
  });
  restorers.push(() => (globalThis.Function = original));
  return counter;
}

test('zod loaded after the shell module is jitless', async () => {
  const { core } = await loadZod();
  expect(core.config().jitless).toBe(true);
});

test('parsing objects then builds no function from text', async () => {
  const evals = countEval();
  const { zod } = await loadZod();
  const schema = zod.object({ code: zod.string(), message: zod.string() });
  expect(schema.safeParse({ code: 'X', message: 'm' }).success).toBe(true);
  expect(schema.safeParse({ code: 1 }).success).toBe(false);
  expect(evals.calls).toBe(0);
});

test('without it zod would build one (so the check above can fail)', async () => {
  const evals = countEval();
  const { zod } = await loadZod(false);
  const schema = zod.object({ code: zod.string() });
  expect(schema.safeParse({ code: 'X' }).success).toBe(true);
  expect(evals.calls).toBeGreaterThan(0);
});
