/**
 * What the search engine needs of a supplier, declared here in the suppliers layer so that the registry
 * can hand suppliers to the engine without importing it (the engine imports these, not the reverse).
 */
import type { CallOptions } from './ports/errors.ts';

/** The three verticals a search runs over. */
export type Vertical = 'flight' | 'hotel' | 'transport';

/** A supplier as the engine sees it: a name and a search. */
export interface SearchableSupplier<Q, O> {
  readonly name: string;
  search(query: Q, opts?: CallOptions): Promise<O[]>;
}
