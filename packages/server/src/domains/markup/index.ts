/** The markup aggregate: markup rules, their CRUD and the search-time calculator. Other folders import it through this file only (test/architecture.test.ts). */
export { applyMarkup } from './engine.ts';
export { loadMarkupRules } from './markup-store.ts';
export { createRule, deleteRule, listRules, updateRule } from './rules-crud.ts';
export { searchMarkup } from './search-markup.ts';
