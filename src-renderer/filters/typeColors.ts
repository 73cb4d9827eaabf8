/**
 * The colour of a crime type on the chips, the table and the incident panel: the map's palette
 * (src-renderer/map/palette.ts), so a type looks the same everywhere.
 */
export { colourOf as typeColor } from '../map/palette';
