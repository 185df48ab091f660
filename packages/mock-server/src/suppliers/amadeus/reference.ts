/** Reference data the generator draws from: airports, carriers with their hubs, aircraft, brands. */

export const AIRPORTS: Record<string, { city: string; country: string; tz: number }> = {
  LHR: { city: 'LON', country: 'GB', tz: 0 },
  LGW: { city: 'LON', country: 'GB', tz: 0 },
  MAN: { city: 'MAN', country: 'GB', tz: 0 },
  CDG: { city: 'PAR', country: 'FR', tz: 1 },
  AMS: { city: 'AMS', country: 'NL', tz: 1 },
  FRA: { city: 'FRA', country: 'DE', tz: 1 },
  MUC: { city: 'MUC', country: 'DE', tz: 1 },
  IST: { city: 'IST', country: 'TR', tz: 3 },
  DXB: { city: 'DXB', country: 'AE', tz: 4 },
  AUH: { city: 'AUH', country: 'AE', tz: 4 },
  DOH: { city: 'DOH', country: 'QA', tz: 3 },
  JED: { city: 'JED', country: 'SA', tz: 3 },
  RUH: { city: 'RUH', country: 'SA', tz: 3 },
  BAH: { city: 'BAH', country: 'BH', tz: 3 },
  KWI: { city: 'KWI', country: 'KW', tz: 3 },
  MCT: { city: 'MCT', country: 'OM', tz: 4 },
  DAC: { city: 'DAC', country: 'BD', tz: 6 },
  KHI: { city: 'KHI', country: 'PK', tz: 5 },
  DEL: { city: 'DEL', country: 'IN', tz: 5 },
  BOM: { city: 'BOM', country: 'IN', tz: 5 },
  KUL: { city: 'KUL', country: 'MY', tz: 8 },
  SIN: { city: 'SIN', country: 'SG', tz: 8 },
  CMB: { city: 'CMB', country: 'LK', tz: 5 },
  JFK: { city: 'NYC', country: 'US', tz: -5 },
  MAD: { city: 'MAD', country: 'ES', tz: 1 },
};

export const CARRIERS: Record<string, { name: string; hub: string }> = {
  BA: { name: 'BRITISH AIRWAYS', hub: 'LHR' },
  EK: { name: 'EMIRATES', hub: 'DXB' },
  QR: { name: 'QATAR AIRWAYS', hub: 'DOH' },
  LH: { name: 'LUFTHANSA', hub: 'FRA' },
  AF: { name: 'AIR FRANCE', hub: 'CDG' },
  KL: { name: 'KLM ROYAL DUTCH AIRLINES', hub: 'AMS' },
  TK: { name: 'TURKISH AIRLINES', hub: 'IST' },
  EY: { name: 'ETIHAD AIRWAYS', hub: 'AUH' },
  SQ: { name: 'SINGAPORE AIRLINES', hub: 'SIN' },
  BG: { name: 'BIMAN BANGLADESH', hub: 'DAC' },
  GF: { name: 'GULF AIR', hub: 'BAH' },
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
