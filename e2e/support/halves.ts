/** Two squares over the seeded city (Chicago): everything north of 41.85° and everything south. */
export const HALVES = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    ['North half', 41.85, 42.2],
    ['South half', 41.5, 41.85],
  ].map(([name, south, north]) => ({
    type: 'Feature',
    properties: { NAME: name },
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [-88.1, south],
          [-87.4, south],
          [-87.4, north],
          [-88.1, north],
          [-88.1, south],
        ],
      ],
    },
  })),
});
