/**
 * The simulated cities: real US city centres in different time zones, each with hot spots, plus a
 * sparse suburban area. Locations are centres only; every address generated around them is synthetic.
 */
export type HotSpot = { lat: number; lon: number; weight: number; spreadDeg: number };

export type CityDef = {
  name: string;
  lat: number;
  lon: number;
  timezone: string;
  /** Share of all incidents. */
  weight: number;
  /** Standard deviation of the background scatter, degrees. */
  spreadDeg: number;
  /** Share of the city's incidents that fall in its hot spots. */
  hotShare: number;
  hotSpots: HotSpot[];
};

export const CITIES: readonly CityDef[] = [
  {
    name: 'Chicago',
    lat: 41.8781,
    lon: -87.6298,
    timezone: 'America/Chicago',
    weight: 0.27,
    spreadDeg: 0.06,
    hotShare: 0.3,
    hotSpots: [
      { lat: 41.8837, lon: -87.6289, weight: 3, spreadDeg: 0.004 },
      { lat: 41.8806, lon: -87.7251, weight: 2, spreadDeg: 0.006 },
      { lat: 41.7625, lon: -87.576, weight: 2, spreadDeg: 0.005 },
    ],
  },
  {
    name: 'New York',
    lat: 40.7128,
    lon: -74.006,
    timezone: 'America/New_York',
    weight: 0.26,
    spreadDeg: 0.05,
    hotShare: 0.3,
    hotSpots: [
      { lat: 40.7549, lon: -73.984, weight: 3, spreadDeg: 0.004 },
      { lat: 40.8448, lon: -73.8648, weight: 2, spreadDeg: 0.006 },
      { lat: 40.6782, lon: -73.9442, weight: 2, spreadDeg: 0.006 },
    ],
  },
  {
    name: 'Denver',
    lat: 39.7392,
    lon: -104.9903,
    timezone: 'America/Denver',
    weight: 0.12,
    spreadDeg: 0.05,
    hotShare: 0.25,
    hotSpots: [
      { lat: 39.7527, lon: -104.999, weight: 2, spreadDeg: 0.004 },
      { lat: 39.74, lon: -104.96, weight: 1, spreadDeg: 0.005 },
    ],
  },
  {
    name: 'Phoenix',
    lat: 33.4484,
    lon: -112.074,
    timezone: 'America/Phoenix',
    weight: 0.14,
    spreadDeg: 0.07,
    hotShare: 0.25,
    hotSpots: [
      { lat: 33.45, lon: -112.07, weight: 2, spreadDeg: 0.005 },
      { lat: 33.495, lon: -112.1, weight: 1, spreadDeg: 0.006 },
    ],
  },
  {
    name: 'Los Angeles',
    lat: 34.0522,
    lon: -118.2437,
    timezone: 'America/Los_Angeles',
    weight: 0.18,
    spreadDeg: 0.07,
    hotShare: 0.3,
    hotSpots: [
      { lat: 34.0407, lon: -118.2468, weight: 3, spreadDeg: 0.004 },
      { lat: 34.1016, lon: -118.3267, weight: 2, spreadDeg: 0.005 },
    ],
  },
  {
    name: 'Fishers, IN (sparse suburbs)',
    lat: 39.9568,
    lon: -86.0134,
    timezone: 'America/Indiana/Indianapolis',
    weight: 0.03,
    spreadDeg: 0.08,
    hotShare: 0,
    hotSpots: [],
  },
];

/** Index of the city that holds the block with more than 500 incidents on one day. */
export const BIG_BLOCK_CITY = 0;
/** Where that block is: on the first hot spot of that city. */
export const BIG_BLOCK_SPOT = { lat: 41.8841, lon: -87.6302 };
