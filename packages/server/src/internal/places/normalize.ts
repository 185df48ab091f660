/**
 * Text normalisation shared by the index build and the query path, so both sides agree byte for byte:
 * lower case, diacritics stripped (NFD + drop combining marks, so "São" matches "sao"), `&` read as "and",
 * every other non-alphanumeric run becomes one space.
 */

const COMBINING = /[\u0300-\u036f]/g;
const NON_ALNUM = /[^a-z0-9]+/g;

export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(COMBINING, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(NON_ALNUM, ' ')
    .trim();
}
