/**
 * The `blotter` command line, a host of the engine like the app's: each command starts the engine
 * in-process (session.ts) and maps itself to contract calls. One line on stderr for every failure,
 * with exit codes per README.md (failure.ts holds the table from error codes).
 */
import { DataDirError, localFailureOf } from '../engine/index';
import { parseArgs, UsageError, type FlagSpec, type Parsed } from './args';
import { ALERTS_FLAGS, alertsCommand } from './alertsCommand';
import { ANALYZE_FLAGS, analyzeCommand } from './analyzeCommand';
import { AREAS_FLAGS, areasCommand } from './areasCommand';
import { BASEMAP_FLAGS, basemapCommand } from './basemapCommand';
import { OFFICE_FLAGS, officeCommand } from './officeCommand';
import { REPORT_FLAGS, reportCommand } from './reportCommand';
import { EXPORT_FLAGS, exportCommand } from './exportCommand';
import { CallFailure, cliWords, exitCodeOf } from './failure';
import { IMPORT_FLAGS, importCommand } from './importCommand';
import { LAYERS_FLAGS, layersCommand } from './layersCommand';
import { PLACES_FLAGS, placesCommand } from './placesCommand';
import { EXIT, type Io } from './io';
import { openedDbFile } from './session';
import { SETTINGS_FLAGS, settingsCommand } from './settingsCommand';
import { STATUS_FLAGS, statusCommand } from './statusCommand';
import { SYNC_FLAGS, syncCommand } from './syncCommand';

export const USAGE = `Usage:
  blotter sync     [--data-dir DIR] --area "LAT,LON,RADIUS_MI" [--area ...] [--details] [--history]
                   [--base-url URL] [--plan developer|pro-monthly|pro-annual|enterprise]
                   [--rate PER_MINUTE] [--window-days N]   (stored as the folder's settings; the
                   base URL is needed until one is stored; rate and window are Enterprise's own)
                   --history: v1's 36 months before the plan window (Pro, Enterprise; count first)
  blotter export   [--data-dir DIR] --format csv|geojson|gpkg|shp|kml [--out FILE] [--bom] [--types a,b]
                   [--from YYYY-MM-DD] [--to YYYY-MM-DD] | [--preset 7d|30d|90d|all] [--hours START-END]
                   [--weekdays sat,sun] [--text WORDS] [--include-removed] [--include-unplaced]
                   [--area "LAT,LON,RADIUS_MI" | --area-id ID | --polygon FILE.geojson]
                   [--layer N|ID --feature NAME [--buffer-ft D | --buffer-m D]]   (inside one
                   feature of a reference layer, or within D of it)
  blotter status   [--data-dir DIR]
  blotter import   FILE [--dry-run] [--on-bad-rows skip|abort] [--mapping NAME | --mapping-file F.json]
                   [--type TYPE] [--place] [--data-dir DIR]   (another system's columns: a mapping saved
                   by name, or a file; --type: one type for every row, e.g. a file of shootings;
                   rows with an address but no coordinates are kept as unplaced, --place: placed now)
  blotter places   add FILE | retry | list   [--data-dir DIR]   the offline locator: add a reference
                   (TIGER/Line EDGES or ADDRFEAT centre lines as a zipped Shapefile or .shp, or address
                   points as CSV or GeoJSON) and place the unplaced rows; retry: try them again
  blotter areas    list | add --name N (--circle "LAT,LON,RADIUS_MI" | --polygon FILE.geojson)
                   [--refresh-minutes M] | remove ID [--keep-incidents]   [--data-dir DIR]
  blotter layers   import FILE (--name N | --as-areas [--feature NAME]) [--name-field F] | list
                 | count --layer N|ID [--buffer-ft D | --buffer-m D] [the export's filters but --feature]
                 | rename ID --name N | remove ID   [--data-dir DIR]   reference layers (beats,
                   schools…) from GeoJSON, a zipped Shapefile or KML; count: the matching incidents
                   within D of each feature and in all (each once); last stdout line: JSON.
  blotter settings get [KEY] | set KEY VALUE   (KEY: base-url, plan, rate, window-days, api-key)
                   settings set api-key - reads the key from standard input; never give it as an argument.
  blotter analyze  hotspots [--grid square|hexagon] [--cell-size-m N] [--distance-band-m N] --out F.geojson
                 | kde [--radius-m N] [--cell-size-m N] --format geojson|geotiff --out F
                 | near-repeat (--space-bands-m 0,120,240 | --space-bands-ft 0,400,800)
                   --time-bands-days 0,7,14 [--iterations 99] [--seed N] --out F.json
                 | compstat [--as-of YYYY-MM-DD] --format json|csv --out F
                   [--data-dir DIR] and the export's filters; the last stdout line is JSON with the
                   parameters used (defaults included). Fewer than 30 incidents: refused, exit 2.
  blotter basemap  download --source URL [--max-zoom 15] [--start-over] [--data-dir DIR]
                   the streets of every area (+1 km) from a PMTiles archive (https or loopback) into
                   DIR/basemap/areas.pmtiles; resumes where a killed run stopped. Last stdout line: JSON.
                 | status [--data-dir DIR]   what the map draws and which areas the offline streets
                   cover (box + 1 km), as JSON; an area they miss is named on stderr.
  blotter alerts   list | add --rule FILE.json | test --rule FILE.json|ID [--days 90] | remove ID
                   [--data-dir DIR]   rules as JSON (the schema is in the CLI README); alerts are
                   checked only while Blotter or a command-line sync runs.
  blotter report   --out FILE.pdf [--as-of YYYY-MM-DD] [--paper a4|letter] [the export's filters]
                 | --send-due   [--data-dir DIR]   the PDF report the app prints (its page, printed by
                   headless Chromium: /usr/bin/chromium or BLOTTER_CHROMIUM; none installed: exit 1);
                   --send-due: email the scheduled reports that are due (for cron).
  blotter report   schedule list | add (--area-id ID | --layer N --feature NAME) [--weekday mon] [--time 07:00]
                   [--paper a4|letter] [--to a@b,c@d] | remove ID   [--data-dir DIR]   emailed bulletins: weekly,
                   local time in the area's (or feature's) zone, through the alerts' mail server (password:
                   BLOTTER_SMTP_PASSWORD or the keychain).
  blotter office   join --pg postgres://USER@HOST/DB [--password-stdin] [--replace-local|--seed] | status
                 | leave   [--data-dir DIR]   office mode: the archive in PostgreSQL, this folder a
                   replica; the password from PGPASSWORD, ~/.pgpass or stdin, never the URL.

The API key comes from BLOTTER_API_KEY, else from the keychain entry stored for DIR.
sync prints progress on stderr and, as its last stdout line, a JSON summary:
  {"requests","incidents","new","updated","removed","rateLimited","seconds","lowerBoundRequests",
   "fairLowerBound","alerts":[{"ruleId","incidents"}],...}
Exit codes: 0 complete; 1 failed (offline, server errors, disk full, ...); 2 bad arguments;
3 key refused (401); 4 this computer's IP is not on the key's allowlist (403); 5 finished but not
provably complete; 6 no API key; 7 another Blotter is syncing this area of the folder;
8 office database unreachable (office mode); 130 interrupted.
`;

type Command = { flags: FlagSpec; run: (p: Parsed, io: Io) => Promise<number> };

const COMMANDS: Record<string, Command> = {
  sync: { flags: SYNC_FLAGS, run: syncCommand },
  export: { flags: EXPORT_FLAGS, run: exportCommand },
  status: { flags: STATUS_FLAGS, run: statusCommand },
  import: { flags: IMPORT_FLAGS, run: importCommand },
  areas: { flags: AREAS_FLAGS, run: areasCommand },
  settings: { flags: SETTINGS_FLAGS, run: settingsCommand },
  analyze: { flags: ANALYZE_FLAGS, run: analyzeCommand },
  basemap: { flags: BASEMAP_FLAGS, run: basemapCommand },
  alerts: { flags: ALERTS_FLAGS, run: alertsCommand },
  office: { flags: OFFICE_FLAGS, run: officeCommand },
  layers: { flags: LAYERS_FLAGS, run: layersCommand },
  report: { flags: REPORT_FLAGS, run: reportCommand },
  places: { flags: PLACES_FLAGS, run: placesCommand },
};

/** Errors an engine can throw while it opens the data file, whose message is already the whole story. */
const STARTUP_ERRORS = new Set(['DatabaseTooNewError', 'DatabaseOpenError', 'MigrationError']);

export async function main(io: Io): Promise<number> {
  const [command] = io.argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return command ? EXIT.ok : EXIT.usage;
  }
  const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!entry) {
    io.err(
      `blotter: unknown command "${command}". Commands: ${Object.keys(COMMANDS).join(', ')}. Run with --help for usage.\n`,
    );
    return EXIT.usage;
  }
  try {
    const parsed = parseArgs(io.argv, entry.flags);
    if (parsed.flags.has('help')) {
      io.out(USAGE);
      return EXIT.ok;
    }
    return await entry.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`blotter ${command}: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof CallFailure) {
      io.err(`blotter: ${cliWords(error.code, error.message)}\n`);
      return exitCodeOf(error.code);
    }
    if (error instanceof DataDirError || (error instanceof Error && STARTUP_ERRORS.has(error.name))) {
      io.err(`blotter: ${error.message}\n`);
      return EXIT.failed;
    }
    const local = localFailureOf(error, openedDbFile());
    if (local) {
      io.err(`blotter: ${local.message}\n`);
      return EXIT.failed;
    }
    io.err(`blotter: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}
