// Runtime checks of the values read back from browser storage, with zod's `safeParse` interface.
// Not zod itself: the storage registry is part of every page's first load (the log and the signed-in
// check need it), and zod's core would be about a seventh of the login page's JavaScript budget. The
// shapes stored here are few and flat; remote answers are still parsed with zod (http.ts), which loads
// with the HTTP client.

export interface Shape<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
  /** Set on shapes made by optional(): the property may be missing. */
  readonly optional?: true;
}

/** The type a shape accepts. */
export type Infer<S> = S extends Shape<infer T> ? T : never;

export const string = shape((v): v is string => typeof v === 'string');
export const boolean = shape((v): v is boolean => typeof v === 'boolean');
export const number = shape((v): v is number => typeof v === 'number' && Number.isFinite(v));
export const integer = shape((v): v is number => Number.isSafeInteger(v));

/** One of the given strings. */
export function oneOf<const T extends readonly string[]>(...values: T): Shape<T[number]> {
  return shape((v): v is T[number] => typeof v === 'string' && values.includes(v));
}

export function either<A, B>(a: Shape<A>, b: Shape<B>): Shape<A | B> {
  return shape((v): v is A | B => a.safeParse(v).success || b.safeParse(v).success);
}

export function optional<T>(inner: Shape<T>): Shape<T | undefined> & { optional: true } {
  return { ...shape((v): v is T | undefined => v === undefined || inner.safeParse(v).success), optional: true };
}

export function arrayOf<T>(item: Shape<T>): Shape<T[]> {
  return shape((v): v is T[] => Array.isArray(v) && v.every((entry) => item.safeParse(entry).success));
}

/** Any JSON object (not an array, not null). */
export const anyObject = shape(
  (v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v),
);

type Properties = Record<string, Shape<unknown>>;
type OptionalKeys<P extends Properties> = { [K in keyof P]: P[K] extends { optional: true } ? K : never }[keyof P];
type ObjectOf<P extends Properties> = { [K in Exclude<keyof P, OptionalKeys<P>>]: Infer<P[K]> } & {
  [K in OptionalKeys<P>]?: Infer<P[K]>;
};

/**
 * An object whose listed properties have the given shapes. Other properties are kept as they are
 * (like zod's looseObject): a record written by a newer version of the app still reads.
 */
export function object<P extends Properties>(properties: P): Shape<ObjectOf<P> & Record<string, unknown>> {
  return shape((v): v is ObjectOf<P> & Record<string, unknown> => {
    if (!anyObject.safeParse(v).success) return false;
    const record = v as Record<string, unknown>;
    return Object.entries(properties).every(([name, property]) => property.safeParse(record[name]).success);
  });
}

function shape<T>(accepts: (value: unknown) => value is T): Shape<T> {
  return { safeParse: (value) => (accepts(value) ? { success: true, data: value } : { success: false }) };
}
