/** A date `days` after `from` (now by default), as the contract writes departure dates (YYYY-MM-DD). */
export const futureDate = (days: number, from = Date.now()): string =>
  new Date(from + days * 86_400_000).toISOString().slice(0, 10);

/** The getFare body of a one-way search for one adult in economy, by the sandbox agency's agent. */
export function oneWaySearch(origin: string, destination: string, departureDate: string) {
  return {
    companyCode: 'SANDBOX',
    userCode: 'AGENT1',
    adults: 1,
    journeyType: 'OneWay',
    cabinClass: 'Economy',
    searchAirLegs: [{ origin, destination, departureDate }],
  };
}
