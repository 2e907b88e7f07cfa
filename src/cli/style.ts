/**
 * Terminal colours: ANSI styles that are the identity when colours are off. Colours are on only
 * when the stream is a terminal, unless `NO_COLOR` is set (non-empty: off) or `FORCE_COLOR` is set
 * (non-empty and not "0": on); `NO_COLOR` wins.
 */

/** A function that wraps text in one style. */
export type Paint = (text: string) => string;

/** The styles the reports use. */
export interface Style {
  readonly enabled: boolean;
  readonly error: Paint;
  readonly warning: Paint;
  readonly ok: Paint;
  readonly hint: Paint;
  readonly dim: Paint;
  readonly bold: Paint;
}

const sgr =
  (open: string, close: string): Paint =>
  (text) =>
    text === "" ? text : `\u001b[${open}m${text}\u001b[${close}m`;

const identity: Paint = (text) => text;

/** Whether to colour a stream, given whether it is a terminal and the environment. */
export function colourEnabled(isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return isTTY === true && env.TERM !== "dumb";
}

/** The styles, coloured or plain. */
export function makeStyle(enabled: boolean): Style {
  if (!enabled) return { enabled, error: identity, warning: identity, ok: identity, hint: identity, dim: identity, bold: identity };
  return {
    enabled,
    error: sgr("1;31", "22;39"),
    warning: sgr("1;33", "22;39"),
    ok: sgr("32", "39"),
    hint: sgr("36", "39"),
    dim: sgr("2", "22"),
    bold: sgr("1", "22"),
  };
}
