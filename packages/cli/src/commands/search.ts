/** `travel search flight|hotel|transport`. */
import { Command } from 'commander';
import type { Deps } from '../context.ts';
import { searchFlightCommand } from './search-flight.ts';
import { searchHotelCommand } from './search-hotel.ts';
import { searchTransportCommand } from './search-transport.ts';

export function searchCommand(deps: Deps): Command {
  return new Command('search')
    .description('live searches: flight, hotel, transport')
    .addCommand(searchFlightCommand(deps))
    .addCommand(searchHotelCommand(deps))
    .addCommand(searchTransportCommand(deps));
}
