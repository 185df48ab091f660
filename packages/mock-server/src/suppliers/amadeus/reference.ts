/** Reference data the generator draws from: city codes, carriers, aircraft, brands. */

/**
 * IATA metropolitan codes of the airports that have one (Amadeus' `cityCode` in the locations dictionary);
 * any other airport is its own city. Coordinates, zones and countries come from `shared/world.ts`.
 */
export const AIRPORT_CITY: Record<string, string> = {
  LHR: 'LON',
  LGW: 'LON',
  STN: 'LON',
  LTN: 'LON',
  LCY: 'LON',
  CDG: 'PAR',
  ORY: 'PAR',
  JFK: 'NYC',
  EWR: 'NYC',
  LGA: 'NYC',
  FCO: 'ROM',
  MXP: 'MIL',
  LIN: 'MIL',
  HND: 'TYO',
  NRT: 'TYO',
  IAD: 'WAS',
  DCA: 'WAS',
  ORD: 'CHI',
  ARN: 'STO',
  SVO: 'MOW',
  PEK: 'BJS',
  ICN: 'SEL',
  GRU: 'SAO',
  EZE: 'BUE',
  YYZ: 'YTO',
  DXB: 'DXB',
};

/** The airlines this GDS sells; where each flies is `shared/network.ts`'s business. */
export const CARRIERS: Record<string, { name: string }> = {
  BA: { name: 'BRITISH AIRWAYS' },
  EK: { name: 'EMIRATES' },
  QR: { name: 'QATAR AIRWAYS' },
  LH: { name: 'LUFTHANSA' },
  AF: { name: 'AIR FRANCE' },
  KL: { name: 'KLM ROYAL DUTCH AIRLINES' },
  TK: { name: 'TURKISH AIRLINES' },
  EY: { name: 'ETIHAD AIRWAYS' },
  SQ: { name: 'SINGAPORE AIRLINES' },
  BG: { name: 'BIMAN BANGLADESH' },
  GF: { name: 'GULF AIR' },
};

export const AIRCRAFT: Record<string, string> = {
  '320': 'AIRBUS A320',
  '321': 'AIRBUS A321',
  '333': 'AIRBUS A330-300',
  '359': 'AIRBUS A350-900',
  '388': 'AIRBUS A380-800',
  '77W': 'BOEING 777-300ER',
  '789': 'BOEING 787-9',
  '738': 'BOEING 737-800',
};

export const CURRENCY_NAMES: Record<string, string> = {
  GBP: 'POUND STERLING',
  USD: 'US DOLLAR',
  EUR: 'EURO',
  AED: 'UAE DIRHAM',
  SAR: 'SAUDI RIYAL',
  BDT: 'TAKA',
  QAR: 'QATARI RIAL',
  BHD: 'BAHRAINI DINAR',
  KWD: 'KUWAITI DINAR',
  OMR: 'RIAL OMANI',
  PKR: 'PAKISTAN RUPEE',
  INR: 'INDIAN RUPEE',
  MYR: 'MALAYSIAN RINGGIT',
  SGD: 'SINGAPORE DOLLAR',
  LKR: 'SRI LANKA RUPEE',
};

/** Rough units of each currency per 1 EUR, so fares look plausible in any requested currency. */
export const EUR_RATE: Record<string, number> = {
  EUR: 1,
  GBP: 0.85,
  USD: 1.08,
  AED: 3.97,
  SAR: 4.05,
  BDT: 127,
  QAR: 3.93,
  BHD: 0.41,
  KWD: 0.33,
  OMR: 0.42,
  PKR: 301,
  INR: 90,
  MYR: 5.1,
  SGD: 1.46,
  LKR: 325,
};

export type AmadeusCabin = 'ECONOMY' | 'PREMIUM_ECONOMY' | 'BUSINESS' | 'FIRST';
export const CABIN_FACTOR: Record<AmadeusCabin, number> = {
  ECONOMY: 1,
  PREMIUM_ECONOMY: 1.7,
  BUSINESS: 3.6,
  FIRST: 6,
};
export const CABIN_CLASSES: Record<AmadeusCabin, string[]> = {
  ECONOMY: ['Y', 'B', 'M', 'K', 'Q', 'V'],
  PREMIUM_ECONOMY: ['W', 'E'],
  BUSINESS: ['J', 'C', 'D'],
  FIRST: ['F', 'A'],
};

/** Branded fares: what each brand includes. The upsell answers every brand of the itinerary. */
export interface Brand {
  code: string;
  label: string;
  factor: number;
  bags: number;
  refundable: boolean;
  changeable: boolean;
}
export const BRANDS: Brand[] = [
  { code: 'LIGHT', label: 'ECONOMY LIGHT', factor: 1, bags: 0, refundable: false, changeable: false },
  { code: 'CLASSIC', label: 'ECONOMY CLASSIC', factor: 1.18, bags: 1, refundable: false, changeable: true },
  { code: 'FLEX', label: 'ECONOMY FLEX', factor: 1.45, bags: 2, refundable: true, changeable: true },
];
export const brandByCode = (code: string | undefined): Brand =>
  BRANDS.find((b) => b.code === code) ?? (BRANDS[1] as Brand);
