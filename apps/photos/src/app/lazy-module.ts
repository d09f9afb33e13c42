// A module fetched with import() once per tab, and kept: the pages' way to load their heavy part. In a module of its
// own so that a page that is not signed in (/shared-albums) loads it without the account storage that
// use-signed-in-module.ts reads.

/** A page module loaded once per tab: the promise and, once here, the module itself. */
export interface LazyModule<M> {
  load(): Promise<M>;
  loaded(): M | undefined;
}

export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let module: M | undefined;
  let loading: Promise<M> | undefined;
  return {
    load() {
      loading ??= importer().then(
        (arrived) => (module = arrived),
        (error: unknown) => {
          loading = undefined; // tried again on the next visit
          throw error;
        },
      );
      return loading;
    },
    loaded: () => module,
  };
}
