/**
 * Text on its way to a terminal, made inert. Area names, API error text, file names and anything
 * else that reaches stdout/stderr as a line may carry escape sequences (clear the screen, rewrite
 * the title, hide text, hyperlinks) or bidi overrides that make a line read differently from what
 * it says. Every line the CLI prints passes through `forTerminal` (io.ts), so no caller has to
 * remember. Data the user asked for (an export to stdout) is written raw, not through here.
 */

/** ESC sequences: CSI (ESC [ … final), OSC / DCS / SOS / PM / APC strings (to BEL or ST), and ESC + one char. */
const ESCAPES =
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\|$)|\x9b[0-?]*[ -/]*[@-~]?|[\x90\x9d-\x9f][\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[\s\S]?/g;
/** C0 controls except tab and newline, DEL, and C1 controls. */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** `text` without escape sequences, control characters (but \n and \t) or bidi overrides. */
export function forTerminal(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '').replace(BIDI, '');
}
