/** jq-web ships no types: its CommonJS export is a promise of the compiled jq. */
declare module 'jq-web' {
  const jq: Promise<{ raw(json: string, filter: string, flags?: string[]): string }>;
  export default jq;
}
