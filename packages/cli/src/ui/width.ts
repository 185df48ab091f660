/** The width a table gets when nobody says: stdout that is not a terminal and no COLUMNS. */
export const DEFAULT_TABLE_WIDTH = 100;
