/**
 * Destinations as travellers type them, with where they mean (city centre coordinates written by hand from
 * an atlas, not from the data the server resolves with) and an airport of that city for the transfer leg.
 */
export interface IntendedCity {
  query: string;
  lat: number;
  lon: number;
  /** ISO 3166-1 alpha-2 of the intended city. */
  country: string;
  airport: string;
}

const c = (query: string, lat: number, lon: number, country: string, airport: string): IntendedCity => ({
  query,
  lat,
  lon,
  country,
  airport,
});

export const INTENDED_CITIES: readonly IntendedCity[] = [
  // Europe
  c('London', 51.507, -0.128, 'GB', 'LHR'),
  c('Birmingham', 52.486, -1.89, 'GB', 'BHX'),
  c('Cambridge', 52.205, 0.122, 'GB', 'STN'),
  c('Manchester', 53.481, -2.243, 'GB', 'MAN'),
  c('Glasgow', 55.864, -4.252, 'GB', 'GLA'),
  c('Newcastle, GB', 54.978, -1.618, 'GB', 'NCL'),
  c('Dublin', 53.35, -6.26, 'IE', 'DUB'),
  c('Paris', 48.857, 2.352, 'FR', 'CDG'),
  c('Rome', 41.903, 12.496, 'IT', 'FCO'),
  c('Madrid', 40.417, -3.704, 'ES', 'MAD'),
  c('Barcelona', 41.385, 2.173, 'ES', 'BCN'),
  c('Valencia, ES', 39.47, -0.376, 'ES', 'VLC'),
  c('Mallorca', 39.57, 2.65, 'ES', 'PMI'),
  c('Berlin', 52.52, 13.405, 'DE', 'BER'),
  c('Munich', 48.137, 11.576, 'DE', 'MUC'),
  c('Amsterdam', 52.37, 4.895, 'NL', 'AMS'),
  c('Vienna', 48.208, 16.373, 'AT', 'VIE'),
  c('Athens', 37.984, 23.728, 'GR', 'ATH'),
  c('Istanbul', 41.008, 28.978, 'TR', 'IST'),
  c('Moscow', 55.756, 37.617, 'RU', 'SVO'),
  c('Reykjavik', 64.147, -21.942, 'IS', 'KEF'),
  // Middle East and Africa
  c('Dubai', 25.205, 55.271, 'AE', 'DXB'),
  c('Doha', 25.286, 51.533, 'QA', 'DOH'),
  c('Riyadh', 24.713, 46.675, 'SA', 'RUH'),
  c('Tel Aviv', 32.085, 34.782, 'IL', 'TLV'),
  c('Cairo', 30.044, 31.236, 'EG', 'CAI'),
  c('Casablanca', 33.573, -7.59, 'MA', 'CMN'),
  c('Marrakech', 31.629, -7.981, 'MA', 'RAK'),
  c('Lagos', 6.524, 3.379, 'NG', 'LOS'),
  c('Nairobi', -1.292, 36.822, 'KE', 'NBO'),
  c('Johannesburg', -26.204, 28.047, 'ZA', 'JNB'),
  c('Cape Town', -33.925, 18.424, 'ZA', 'CPT'),
  // Asia
  c('Mumbai', 19.076, 72.878, 'IN', 'BOM'),
  c('Bombay', 19.076, 72.878, 'IN', 'BOM'),
  c('Delhi', 28.614, 77.209, 'IN', 'DEL'),
  c('Calcutta', 22.573, 88.364, 'IN', 'CCU'),
  c('Hyderabad', 17.385, 78.487, 'IN', 'HYD'),
  c('Bangkok', 13.756, 100.502, 'TH', 'BKK'),
  c('Kuala Lumpur', 3.139, 101.687, 'MY', 'KUL'),
  c('Singapore', 1.352, 103.82, 'SG', 'SIN'),
  c('Jakarta', -6.208, 106.846, 'ID', 'CGK'),
  c('Hong Kong', 22.32, 114.169, 'HK', 'HKG'),
  c('Peking', 39.904, 116.407, 'CN', 'PEK'),
  c('Shanghai', 31.23, 121.474, 'CN', 'PVG'),
  c('Saigon', 10.823, 106.63, 'VN', 'SGN'),
  c('Seoul', 37.567, 126.978, 'KR', 'GMP'),
  c('Tokyo', 35.69, 139.692, 'JP', 'HND'),
  c('Osaka', 34.694, 135.502, 'JP', 'ITM'),
  // Oceania
  c('Sydney', -33.869, 151.209, 'AU', 'SYD'),
  c('Melbourne', -37.814, 144.963, 'AU', 'MEL'),
  c('Perth', -31.953, 115.857, 'AU', 'PER'),
  c('Auckland', -36.849, 174.763, 'NZ', 'AKL'),
  // Americas
  c('New York', 40.713, -74.006, 'US', 'JFK'),
  c('Washington', 38.907, -77.037, 'US', 'DCA'),
  c('Boston', 42.36, -71.059, 'US', 'BOS'),
  c('Chicago', 41.878, -87.63, 'US', 'ORD'),
  c('Miami', 25.762, -80.192, 'US', 'MIA'),
  c('Los Angeles', 34.052, -118.244, 'US', 'LAX'),
  c('San Francisco', 37.775, -122.419, 'US', 'SFO'),
  c('Portland', 45.515, -122.679, 'US', 'PDX'),
  c('Portland, Maine', 43.661, -70.255, 'US', 'PWM'),
  c('Birmingham, AL', 33.519, -86.81, 'US', 'BHM'),
  c('Honolulu', 21.307, -157.858, 'US', 'HNL'),
  c('Toronto', 43.653, -79.383, 'CA', 'YYZ'),
  c('London, CA', 42.984, -81.245, 'CA', 'YXU'),
  c('Montreal', 45.502, -73.567, 'CA', 'YUL'),
  c('Vancouver', 49.283, -123.121, 'CA', 'YVR'),
  c('Mexico City', 19.433, -99.133, 'MX', 'MEX'),
  c('Havana', 23.113, -82.366, 'CU', 'HAV'),
  c('Bogotá', 4.711, -74.072, 'CO', 'BOG'),
  c('Lima', -12.046, -77.043, 'PE', 'LIM'),
  c('Santiago', -33.449, -70.669, 'CL', 'SCL'),
  c('São Paulo', -23.551, -46.633, 'BR', 'GRU'),
  c('Rio de Janeiro', -22.907, -43.173, 'BR', 'SDU'),
  c('Buenos Aires', -34.604, -58.382, 'AR', 'AEP'),
  // IATA city codes
  c('LON', 51.507, -0.128, 'GB', 'LHR'),
  c('NYC', 40.713, -74.006, 'US', 'JFK'),
  c('PAR', 48.857, 2.352, 'FR', 'CDG'),
  c('TYO', 35.69, 139.692, 'JP', 'HND'),
  c('MIL', 45.464, 9.19, 'IT', 'LIN'),
  c('ROM', 41.903, 12.496, 'IT', 'FCO'),
  c('WAS', 38.907, -77.037, 'US', 'DCA'),
  c('CHI', 41.878, -87.63, 'US', 'ORD'),
  c('BJS', 39.904, 116.407, 'CN', 'PEK'),
  c('SAO', -23.551, -46.633, 'BR', 'GRU'),
  c('BUE', -34.604, -58.382, 'AR', 'AEP'),
  c('MOW', 55.756, 37.617, 'RU', 'SVO'),
  c('STO', 59.329, 18.069, 'SE', 'ARN'),
  c('OSA', 34.694, 135.502, 'JP', 'ITM'),
  c('SEL', 37.567, 126.978, 'KR', 'GMP'),
  c('YTO', 43.653, -79.383, 'CA', 'YYZ'),
  c('YMQ', 45.502, -73.567, 'CA', 'YUL'),
  c('RIO', -22.907, -43.173, 'BR', 'SDU'),
  c('JKT', -6.208, 106.846, 'ID', 'CGK'),
  c('BKK', 13.756, 100.502, 'TH', 'DMK'),
];
