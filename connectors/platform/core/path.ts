/** A path parameter: an id, an E.164 number, or (for `{ids}`) a list joined by commas. */
export type PathParam = string | number | readonly (string | number)[];
/** Values for the `{name}` segments of a spec path template. */
export type PathParams = Readonly<Record<string, PathParam>>;

function encodeOne(name: string, value: string | number): string {
  const s = String(value);
  // An empty or dot segment would silently address another resource (/cdrs/.trace, /users/..).
  if (s === '' || s === '.' || s === '..')
    throw new TypeError(`path parameter ${name} is empty or a dot segment`);
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`path parameter ${name} is not a finite number`);
  }
  return encodeURIComponent(s);
}

/**
 * Expands a spec path template such as `/cdrs/{id}.trace` or `/monitors/{ids}`, URL-encoding each parameter;
 * a list becomes its encoded items joined by literal commas. Missing or unused parameters are errors.
 */
export function expandPath(template: string, params: PathParams = {}): string {
  const used = new Set<string>();
  const path = template.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} missing for ${template}`);
    used.add(name);
    if (Array.isArray(value)) {
      const list = value as readonly (string | number)[];
      if (list.length === 0) throw new TypeError(`path parameter ${name} is an empty list`);
      return list.map((v) => encodeOne(name, v)).join(',');
    }
    return encodeOne(name, value as string | number);
  });
  const unused = Object.keys(params).filter((k) => !used.has(k));
  if (unused.length > 0) throw new TypeError(`path parameters ${unused.join(', ')} not in ${template}`);
  return path;
}
