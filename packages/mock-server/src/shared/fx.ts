/**
 * The sandbox's foreign-exchange table: fixed reference rates, units of each currency per 1 EUR, in the
 * shape of the ECB's daily reference rates (base EUR). Deterministic, so a search in KWD converts a
 * Hotelbeds EUR price to the same fils every time. The server uses it in sandbox mode; `ecbXml` renders
 * it in the ECB's own XML format (what `FX_RATES_URL` / `FX_RATES_FILE` accept in live mode).
 */
export interface FxTable {
  /** The currency every rate is quoted against (1 base = rate units of the currency). */
  base: string;
  /** The reference date of the rates (YYYY-MM-DD). */
  date: string;
  rates: Record<string, number>;
}

export const SANDBOX_FX_RATES: FxTable = Object.freeze({
  base: 'EUR',
  date: '2026-11-24',
  rates: Object.freeze({
    EUR: 1,
    USD: 1.0812,
    GBP: 0.8531,
    BDT: 129.17,
    SAR: 4.0545,
    AED: 3.9707,
    BHD: 0.40653,
    QAR: 3.9356,
    KWD: 0.33202,
    OMR: 0.41571,
    PKR: 301.12,
    INR: 90.21,
    MYR: 4.8612,
    SGD: 1.4503,
    LKR: 316.4,
  }),
}) as FxTable;

/** The table in the ECB's eurofxref-daily.xml format. */
export function ecbXml(t: FxTable = SANDBOX_FX_RATES): string {
  const cubes = Object.entries(t.rates)
    .filter(([c]) => c !== t.base)
    .map(([c, r]) => `      <Cube currency='${c}' rate='${r}'/>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
  <Cube>
    <Cube time='${t.date}'>
${cubes}
    </Cube>
  </Cube>
</gesmes:Envelope>
`;
}
