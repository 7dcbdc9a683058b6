/** Profile ids: the slug rules shared by the bundled catalogue, user files and importers. */

const ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

export function isValidProfileId(id: string): boolean {
  return ID_PATTERN.test(id) && !id.endsWith('-') && !id.endsWith('.');
}

/**
 * Turns a display name into an id fragment: lower case, dots kept (layer heights and nozzle sizes
 * read better as `0.20mm`), `+` spelled out so that "MK3S+" and "MK3S" stay distinct, every other
 * run of punctuation or space collapsed to one dash.
 */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/\+/g, '-plus')
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/[-.]*-[-.]*/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '');
}

/** Joins fragments into one id, e.g. (`Prusa Research`, `0.15mm QUALITY @MK3`). */
export function makeProfileId(...parts: string[]): string {
  return parts
    .map(slugify)
    .filter((p) => p !== '')
    .join('-');
}
