// Template filling for sequence mails: `{{ name }}` placeholders replaced by text, nothing evaluated. Pure, so the
// preview and the batch writer fill a template the same way.

/** `{{ first_name }}`, `{{custom.size}}`: the name between the braces, spaces around it ignored. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** What a placeholder whose value is missing leaves in the text: visible, and never mistaken for a filled word. */
export const gapMarker = (name: string) => `[[${name}?]]`;

export type Rendered = { text: string; missing: string[] };

/** The placeholder names of a template, in order of appearance, each once. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/** A `{{` or `}}` left after taking out the well-formed placeholders: a typo the sender would otherwise mail. */
export function hasStrayBraces(template: string): boolean {
  const rest = template.replace(PLACEHOLDER, '');
  return rest.includes('{{') || rest.includes('}}');
}

/**
 * Fills every placeholder from `values`; a value that is null, absent or blank leaves the gap marker and is listed
 * in `missing` (each name once). Values are inserted as they are: a value holding `{{x}}` is not filled again.
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string | null | undefined>>): Rendered {
  const missing = new Set<string>();
  const text = template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === null || value === undefined || value.trim() === '') {
      missing.add(name);
      return gapMarker(name);
    }
    return value;
  });
  return { text, missing: [...missing] };
}
