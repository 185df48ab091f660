/**
 * The two static documents the platform serves, `/openapi.json` and the `/docs` page, each compressed once
 * in the background when the server starts (`precompute`, called by main.ts and the test server), never
 * on a visitor's request: until a coding is ready a request gets the identity representation.
 */
import { createHash } from 'node:crypto';
import { StaticDocument } from '../../kernel/compression.ts';
import { type DocsPage, docsPage } from './docs-page.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

export class PlatformDocuments {
  readonly contract: StaticDocument;
  #docs: Promise<{ doc: StaticDocument; page: DocsPage }> | undefined;

  constructor(contractJson: string) {
    this.contract = new StaticDocument(contractJson, sha(contractJson));
  }

  /** The docs page (read once) and its document. */
  docs(): Promise<{ doc: StaticDocument; page: DocsPage }> {
    this.#docs ??= docsPage().then((page) => ({ page, doc: new StaticDocument(page.html, page.etag) }));
    return this.#docs;
  }

  /** Compresses both documents in every coding, the contract first (it is the smaller). */
  async precompute(): Promise<void> {
    await this.contract.precompute();
    await (await this.docs()).doc.precompute();
  }
}
