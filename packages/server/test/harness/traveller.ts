/** The adult passenger and the contact the flight-booking suites book with (faults, money-fx). */
export const TEST_PASSENGER = {
  type: 'ADT',
  title: 'MS',
  first_name: 'Ayesha',
  last_name: 'RAHMAN',
  gender: 'F',
  date_of_birth: '1990-04-02',
  nationality: 'GB',
  document: { type: 'passport', number: 'A1234567', expiry: '2031-01-01', issuing_country: 'GB' },
};
export const TEST_CONTACT = { email: 'ayesha@example.test', phone: '+447700900123' };
