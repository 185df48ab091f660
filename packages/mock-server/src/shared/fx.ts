/**
 * The sandbox's foreign-exchange table (`@travel/contract/sandbox-fx`, the one source the server's sandbox
 * mode converts with too), and `ecbXml`, which renders it in the ECB's own XML format (what
 * `FX_RATES_URL` / `FX_RATES_FILE` accept in live mode).
 */
import { type FxTable, SANDBOX_FX_RATES } from '@travel/contract/sandbox-fx';

export { type FxTable, SANDBOX_FX_RATES };

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
