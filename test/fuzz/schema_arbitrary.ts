// fast-check arbitraries from the OpenAPI document's JSON Schemas: values that fit a schema, and values "around"
// it (wrong types, missing and extra fields, prototype keys, huge and unicode strings, SQL-like text, numbers at
// and past bounds, invalid dates and uuids). The fuzz tests read the live document, so new routes are covered.
import fc from 'fast-check';

export type Schema = Record<string, any>;
export type Components = Record<string, Schema>;

const NASTY_STRINGS = [
  "'; drop table leads; --",
  '" or 1=1 --',
  '\u0000',
  '𝕳𝖊𝖑𝖑𝖔 👋🏽 مرحبا 你好',
  '\u202e\u2066',
  '__proto__',
  '{"$ne": null}',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '2026-02-30T25:61:00Z',
  '00000000-0000-0000-0000-00000000000g',
  ' ',
  '',
];

export function resolve(schema: Schema, components: Components): Schema {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = components[s.$ref.split('/').pop()!];
  return s ?? {};
}

/** A value that fits the schema (as far as JSON Schema says; zod refinements may still refuse it). */
export function valid(schema: Schema, components: Components, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  if (depth > 4) return fc.constant(null);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a: Schema) => valid(a, components, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      if (s.format === 'uuid') return fc.uuid();
      if (s.format === 'email') return fc.emailAddress();
      if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === 'date') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (s.format === 'uri') return fc.webUrl();
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 200) });
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valid(s.items ?? {}, components, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 5, 12) });
    case 'object': {
      const props = Object.entries<Schema>(s.properties ?? {});
      const required = new Set<string>(s.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of props) record[k] = valid(v, components, depth + 1);
      return fc.record(record, { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of the wrong shape or at/past a bound for this schema. */
export function invalid(schema: Schema, components: Components): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  const wrongType = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.string(), fc.constant([]), fc.constant({}), fc.constant(1e308));
  const options: fc.Arbitrary<unknown>[] = [wrongType, fc.constantFrom(...NASTY_STRINGS), fc.string({ unit: 'binary', maxLength: 64 })];
  if (s.type === 'integer' || s.type === 'number') {
    const bounds = [s.minimum, s.maximum].filter((b) => typeof b === 'number');
    options.push(fc.constantFrom(...bounds.flatMap((b) => [b - 1, b + 1, b + 0.5]), -1, 0, 2 ** 53, -(2 ** 53), 1.5));
  }
  if (s.type === 'string') {
    options.push(fc.string({ minLength: (s.maxLength ?? 500) + 1, maxLength: (s.maxLength ?? 500) + 10 }));
    options.push(fc.constant('x'.repeat(60 * 1024)));
  }
  return fc.oneof(...options);
}

/** A request body around the schema: valid, or valid with one field broken, removed, added or poisoned. */
export function aroundObject(schema: Schema, components: Components): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  const base = valid(s, components);
  const props = Object.keys(s.properties ?? {});
  const mutate = fc
    .tuple(base, fc.nat(), fc.constantFrom('break', 'drop', 'extra', 'proto', 'constructor'))
    .chain(([value, n, how]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return fc.constant(value);
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const field = props.length ? props[n % props.length] : 'x';
      if (how === 'drop') {
        delete copy[field];
        return fc.constant(copy);
      }
      if (how === 'extra') return fc.constant({ ...copy, unexpected_field: 1 });
      if (how === 'proto') return fc.constant(JSON.parse(`{"__proto__": {"admin": true}, ${JSON.stringify(copy).slice(1)}`.replace(', }', '}')));
      if (how === 'constructor') return fc.constant({ ...copy, constructor: { prototype: { polluted: true } } });
      return invalid((s.properties ?? {})[field] ?? {}, components).map((bad) => ({ ...copy, [field]: bad }));
    });
  return fc.oneof({ arbitrary: base, weight: 1 }, { arbitrary: mutate, weight: 3 }, { arbitrary: fc.oneof(fc.constant(null), fc.constant([]), fc.string(), fc.integer()), weight: 1 });
}

/** A query string around the route's declared parameters. */
export function aroundQuery(params: Schema[], components: Components): fc.Arbitrary<string> {
  const query = params.filter((p) => p.in === 'query');
  if (query.length === 0) return fc.oneof(fc.constant(''), fc.constant('?unknown=1'));
  const entries = query.map((p) =>
    fc.option(
      fc.oneof(valid(p.schema ?? {}, components), invalid(p.schema ?? {}, components)).map((v) => `${encodeURIComponent(p.name)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`),
      { nil: null },
    ),
  );
  return fc.tuple(...entries).map((parts) => {
    const q = parts.filter(Boolean).join('&');
    return q ? `?${q}` : '';
  });
}
