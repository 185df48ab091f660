/** Flight search, offers, pricing and reference data. Offer shapes mirror `suppliers/ports/flight.ts` 1:1. */
import {
  arr,
  bool,
  date,
  dateTime,
  input,
  int,
  type Json,
  minor,
  nullable,
  num,
  obj,
  objReq,
  ref,
  str,
  strEnum,
} from '../lib.ts';
import { fxFields } from './common.ts';

const iata = (description: string) => str({ pattern: '^[A-Z]{3}$', description });
const localDateTime = (description: string) =>
  str({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?$', description });

export const schemas: Record<string, Json> = {
  // --- search -------------------------------------------------------------------------------------
  SearchAirLeg: input(
    {
      origin: iata(
        'IATA airport or city code. A code the reference data does not know is 422 `unknown_location` with loc ["body","searchAirLegs",i,"origin"].',
      ),
      destination: iata('IATA airport or city code (unknown: 422 `unknown_location`, as origin).'),
      departureDate: date({ description: 'YYYY-MM-DD, today or later.' }),
    },
    ['origin', 'destination', 'departureDate'],
    { examples: [{ origin: 'LHR', destination: 'DXB', departureDate: '2026-12-20' }] },
  ),
  FlightSearchRequest: input(
    {
      currency: ref('Currency', { default: 'USD' }),
      companyCode: str({
        minLength: 1,
        maxLength: 50,
        description: 'Must be the caller’s own company (else 403).',
      }),
      userCode: str({
        minLength: 1,
        maxLength: 50,
        description: 'Must be the caller’s own user code (else 403).',
      }),
      adults: int({ minimum: 1, maximum: 9, default: 1 }),
      children: int({ minimum: 0, maximum: 8, default: 0 }),
      infants: int({ minimum: 0, maximum: 9, default: 0, description: 'At most one infant per adult.' }),
      childAge: arr(int({ minimum: 2, maximum: 11 }), {
        maxItems: 8,
        default: [],
        description: 'Age of each child, one entry per child.',
      }),
      journeyType: ref('JourneyType', { default: 'OneWay' }),
      cabinClass: ref('CabinClass', { default: 'Economy' }),
      airline: str({
        pattern: '^[A-Z0-9]{2}$',
        description: 'Restrict to one marketing carrier (IATA 2-character).',
      }),
      searchAirLegs: arr(ref('SearchAirLeg'), {
        minItems: 1,
        maxItems: 6,
        description: 'OneWay: 1 leg; Return: 2 legs (outbound, inbound); MultiCity: 2 to 6 legs.',
      }),
      sources: arr(ref('FlightSupplier'), {
        uniqueItems: true,
        description: 'Suppliers to query; omitted or empty means every enabled supplier.',
      }),
      fareType: arr(str({ maxLength: 30 }), {
        maxItems: 10,
        description: 'Fare types to include, e.g. Public, Private.',
      }),
      corporateCodes: arr(str({ maxLength: 30 }), { maxItems: 10 }),
      refundableFare: bool({ default: false, description: 'Only refundable fares.' }),
      brandedFares: bool({ default: false, description: 'Return branded fare families where available.' }),
      addOneWayOffers: bool({
        default: false,
        description: 'On Return journeys, also combine one-way offers.',
      }),
    },
    ['companyCode', 'userCode', 'searchAirLegs'],
    {
      examples: [
        {
          companyCode: 'ACME',
          userCode: 'agent01',
          currency: 'GBP',
          adults: 1,
          journeyType: 'Return',
          cabinClass: 'Economy',
          searchAirLegs: [
            { origin: 'LHR', destination: 'DXB', departureDate: '2026-12-20' },
            { origin: 'DXB', destination: 'LHR', departureDate: '2026-12-27' },
          ],
        },
      ],
    },
  ),
  SearchStatus: strEnum(['initiated', 'in_progress', 'completed', 'partial', 'failed'], {
    description:
      'initiated: accepted; in_progress: some suppliers still running; completed: all finished; partial: finished with some suppliers timed out or failed; failed: no supplier answered.',
  }),
  FlightSearchSession: obj({
    searchId: str(),
    status: ref('SearchStatus'),
    streamUrl: str({
      description: 'Path of the stream endpoint for this search.',
      examples: ['/api/v1/flight/getFare/stream/fs_01JD3X9K2M'],
    }),
  }),
  // --- offers --------------------------------------------------------------------------------------
  FlightSegment: obj({
    segment_id: str({
      description: 'Stable within the offer: "s1", "s2", … in flight order across all slices.',
    }),
    marketing_carrier: str(),
    operating_carrier: str(),
    flight_number: str(),
    origin: str(),
    destination: str(),
    departure_at: localDateTime('Local date-time at the airport, ISO 8601 without offset.'),
    arrival_at: localDateTime('Local date-time at the airport, ISO 8601 without offset.'),
    duration_minutes: int({ minimum: 0 }),
    cabin: ref('CabinClass'),
    booking_class: str(),
    aircraft: nullable(str()),
  }),
  FlightSlice: obj({
    origin: str(),
    destination: str(),
    departure_date: date(),
    duration_minutes: int({ minimum: 0 }),
    stops: int({ minimum: 0 }),
    segments: arr(ref('FlightSegment')),
  }),
  FlightPrice: obj({
    currency: ref('Currency'),
    base_minor: minor(),
    taxes_minor: minor(),
    markup_minor: minor('Our markup (markup rules engine).'),
    total_minor: minor('base + taxes + markup.'),
  }),
  BaggageAllowance: obj({
    cabin_bags: int({ minimum: 0 }),
    checked_bags: int({ minimum: 0 }),
    checked_bag_weight_kg: nullable(num({ minimum: 0 })),
  }),
  PassengerRequirements: obj(
    {
      passenger_type: ref('PassengerType'),
      identity_document: bool({
        description:
          'A travel document (passenger.document, or the flat doc_* fields) is required, e.g. Duffel’s passenger_identity_documents_required.',
      }),
      document_types: arr(ref('DocumentType'), {
        description: 'Document types the supplier takes (empty when no document is required).',
      }),
      date_of_birth: bool(),
      nationality: bool(),
      phone: bool({
        description: 'The passenger’s own phone is required; when false the booking contact’s phone is used.',
      }),
    },
    { description: 'What booking needs for each passenger of one type.' },
  ),
  BookingRequirements: obj(
    {
      passengers: arr(ref('PassengerRequirements'), {
        description: 'One entry per passenger type on the offer.',
      }),
    },
    {
      description:
        'What createPnr will require, known before booking: it checks these before calling the supplier and answers 422 `passenger_details_required` naming each missing field.',
    },
  ),
  FlightOffer: obj(
    {
      offer_id: str({ description: 'Use this id to price, upsell and book the offer.' }),
      search_id: str(),
      supplier: ref('FlightSupplier'),
      slices: arr(ref('FlightSlice')),
      validating_carrier: str(),
      cabin: ref('CabinClass'),
      fare_brand: nullable(str()),
      refundable: bool(),
      changeable: bool(),
      baggage: ref('BaggageAllowance'),
      price: ref('FlightPrice', {
        description:
          'In the currency the search asked for, whatever currency the supplier priced in: converted at `fx_rate` from `supplier_price` when they differ, then marked up in that currency. Amounts are payable (multiples of 10 minor units for BHD, KWD, OMR).',
      }),
      ...fxFields('`price` (before markup)'),
      passengers: obj({
        adults: int({ minimum: 0 }),
        children: int({ minimum: 0 }),
        infants: int({ minimum: 0 }),
      }),
      lcc: bool({ description: 'Low-cost-carrier content: no IATA ticket, empty fare calculation.' }),
      expires_at: dateTime({ description: 'After this the supplier no longer honours the offer.' }),
      booking_requirements: ref('BookingRequirements'),
    },
    { description: 'A normalized flight offer (mirrors `FlightOffer` in the server’s supplier ports).' },
  ),
  FlightBatchResult: obj({
    search_id: str(),
    status: ref('SearchStatus'),
    results_by_gds: {
      type: 'object',
      description:
        'Supplier (GDS) name to its offers. Suppliers that returned nothing map to an empty array.',
      additionalProperties: arr(ref('FlightOffer')),
    },
    total_offers: int({ minimum: 0 }),
    completed_gds_count: int({ minimum: 0 }),
    total_gds_count: int({ minimum: 0 }),
    timed_out: bool({ description: 'True when the timeout cut the wait (then the status is 408).' }),
  }),
  // --- pricing -------------------------------------------------------------------------------------
  PassengerSpec: input(
    {
      passenger_id: str({
        maxLength: 20,
        description: '1-based traveler index as a string unless you give your own id.',
      }),
      type: ref('PassengerType'),
      age: int({ minimum: 0, maximum: 120 }),
    },
    ['type'],
    { description: 'A passenger for pricing (type and, for children, age).' },
  ),
  RevalidationRequest: input(
    {
      offer_id: str({ minLength: 1, maxLength: 128 }),
      currency: ref('Currency'),
      passengers: arr(ref('PassengerSpec'), {
        maxItems: 9,
        description: 'Defaults to the passenger mix of the search.',
      }),
    },
    ['offer_id', 'currency'],
  ),
  FareRule: obj({ category: str(), title: str(), text: str() }),
  BagOption: obj({
    bag_option_id: str(),
    segment_ids: arr(str(), { description: 'Segments the bag covers; empty means every segment.' }),
    passenger_type: nullable(ref('PassengerType')),
    weight_kg: nullable(num({ minimum: 0 })),
    quantity_max: int({ minimum: 1 }),
    price: ref('Money'),
  }),
  RevalidationResult: objReq(
    {
      offer: ref('FlightOffer'),
      available: bool({ description: 'False when the supplier no longer sells the offer.' }),
      price_changed: bool(),
      previous_total_minor: minor('The total the offer carried before revalidation.'),
      price_change_cause: ref('PriceChangeCause'),
      fare_rules: arr(ref('FareRule'), { description: 'Present with verbose=true.' }),
      bag_options: arr(ref('BagOption'), { description: 'Present with verbose=true.' }),
    },
    ['offer', 'available', 'price_changed', 'previous_total_minor', 'price_change_cause'],
  ),
  UpsellResult: obj({
    offer_id: str(),
    alternatives: arr(ref('FlightOffer'), {
      description: 'Branded-fare alternatives for the same flights, each with its own offer_id.',
    }),
  }),
  BagCatalogue: obj({
    offer: ref('FlightOffer'),
    price_changed: bool(),
    previous_total_minor: minor(),
    bag_options: arr(ref('BagOption')),
  }),
  BagSelection: input(
    {
      bag_option_id: str({ maxLength: 64 }),
      traveler_id: str({ maxLength: 20 }),
      segment_id: str({ maxLength: 20 }),
      quantity: int({ minimum: 1, maximum: 10 }),
    },
    ['quantity'],
  ),
  BagRepriceRequest: input(
    {
      offer_id: str({ minLength: 1, maxLength: 128 }),
      currency: ref('Currency'),
      passengers: arr(ref('PassengerSpec'), { maxItems: 9 }),
      selections: arr(ref('BagSelection'), { maxItems: 50, default: [] }),
    },
    ['offer_id'],
  ),
  BagRepriceResult: obj({
    offer: ref('FlightOffer'),
    bags_minor: minor('The bag charge included in offer.price.total_minor.'),
    selections: arr(ref('BagSelection')),
    price_changed: bool(),
    previous_total_minor: minor(),
  }),
  FareRulesRequest: input({ offer_id: str({ minLength: 1, maxLength: 128 }) }, ['offer_id']),
  FareRulesResult: objReq(
    {
      offer_id: nullable(str()),
      booking_id: nullable(int({ format: 'int64' })),
      rules: arr(ref('FareRule')),
    },
    ['rules'],
  ),
  // --- reference -----------------------------------------------------------------------------------
  MatchType: strEnum(['iata', 'icao', 'prefix', 'token', 'fuzzy'], {
    description:
      'Why the suggestion matched, best first: `iata` / `icao` the query is its IATA / ICAO code, or (`iata`) the IATA city code of the city it serves; `prefix` a two-character query begins its IATA code, or every query word matches a word and the query begins its name, city or an alias; `token` every query word matches a word somewhere (exactly or as a prefix); `fuzzy` at least one word matched only within a small edit distance (a typo).',
  }),
  AirlineSuggestion: obj({
    id: int(),
    name: str(),
    iata_code: nullable(
      str({ pattern: '^[A-Z0-9]{2}$', description: 'IATA designator: two letters or digits.' }),
    ),
    icao_code: nullable(
      str({
        pattern: '^[A-Z]{3}$',
        description:
          'ICAO designator: three letters; null when the airline has none or the data set holds a malformed one.',
      }),
    ),
    country: nullable(str()),
    match_type: ref('MatchType'),
    similarity_score: num({ minimum: 0, maximum: 1 }),
  }),
  AirlineSearchResponse: obj({
    items: arr(ref('AirlineSuggestion'), { description: 'Ranked best first.' }),
    total: int({ minimum: 0 }),
  }),
  AirportSuggestion: obj({
    id: int(),
    name: str(),
    iata_code: str({ pattern: '^[A-Z]{3}$' }),
    icao_code: nullable(
      str({
        pattern: '^[A-Z0-9]{4}$',
        description:
          'ICAO location indicator: four letters or digits; null when unknown or malformed in the data set.',
      }),
    ),
    city: nullable(str()),
    country: nullable(str()),
    latitude: num({ minimum: -90, maximum: 90 }),
    longitude: num({ minimum: -180, maximum: 180 }),
    timezone: nullable(str({ description: 'IANA time zone, e.g. Europe/London.' })),
    match_type: ref('MatchType'),
    similarity_score: num({ minimum: 0, maximum: 1 }),
    distance_km: nullable(
      num({
        minimum: 0,
        description:
          'Kilometres from near_lat/near_lon on geographic searches; always present, null otherwise.',
      }),
    ),
  }),
  AirportSearchResponse: obj({
    items: arr(ref('AirportSuggestion'), {
      description: 'Ranked best first (by distance on geographic searches).',
    }),
    total: int({ minimum: 0 }),
  }),
};
