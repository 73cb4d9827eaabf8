/** Reads the bundled gazetteer text (data/us-places.tsv, built by scripts/build-gazetteer.mjs) into columns. */

export type Gazetteer = {
  /** Cities, largest first (by how many ZIP codes they have). */
  cityName: string[];
  cityState: string[];
  /** Lower-case, accent-free names for matching. */
  cityKey: string[];
  cityLat: Float64Array;
  cityLon: Float64Array;
  cityZips: Uint16Array;
  /** ZIP codes, ascending. */
  zip: string[];
  zipCity: Uint32Array;
  zipLat: Float64Array;
  zipLon: Float64Array;
};

export const normalizeName = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function parseGazetteer(text: string): Gazetteer {
  const lines = text.split('\n');
  const zipsAt = lines.indexOf('#zips');
  const citiesAt = lines.indexOf('#cities');
  if (citiesAt < 0 || zipsAt < citiesAt) throw new Error('The gazetteer data is damaged.');
  const cityLines = lines.slice(citiesAt + 1, zipsAt);
  const zipLines = lines.slice(zipsAt + 1).filter((l) => l.length > 0);
  const g: Gazetteer = {
    cityName: new Array<string>(cityLines.length),
    cityState: new Array<string>(cityLines.length),
    cityKey: new Array<string>(cityLines.length),
    cityLat: new Float64Array(cityLines.length),
    cityLon: new Float64Array(cityLines.length),
    cityZips: new Uint16Array(cityLines.length),
    zip: new Array<string>(zipLines.length),
    zipCity: new Uint32Array(zipLines.length),
    zipLat: new Float64Array(zipLines.length),
    zipLon: new Float64Array(zipLines.length),
  };
  cityLines.forEach((line, i) => {
    const [name = '', state = '', lat = '', lon = '', zips = ''] = line.split('\t');
    g.cityName[i] = name;
    g.cityState[i] = state;
    g.cityKey[i] = normalizeName(name);
    g.cityLat[i] = Number(lat);
    g.cityLon[i] = Number(lon);
    g.cityZips[i] = Number(zips);
  });
  zipLines.forEach((line, i) => {
    const [zip = '', city = '', lat = '', lon = ''] = line.split('\t');
    g.zip[i] = zip;
    g.zipCity[i] = Number(city);
    g.zipLat[i] = Number(lat);
    g.zipLon[i] = Number(lon);
  });
  return g;
}
